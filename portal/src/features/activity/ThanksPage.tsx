/** /thanks: after the uninstall feedback. */

import { Rich, useI18n } from '@widgets/core/i18n';
import { Link } from 'react-router';

export default function ThanksPage() {
  const { t } = useI18n();
  return (
    <div className="page-narrow">
      <div className="card center">
        <h1>{t('thanks.title')}</h1>
        <p>{t('thanks.reached')}</p>
        <p>
          <Rich k="thanks.changedMind" components={{ 0: <Link to="/dashboard" /> }} />
        </p>
      </div>
    </div>
  );
}
