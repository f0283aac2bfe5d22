/** /get-link (learner §2): 'Your Test Link is Generated' — the link went to the learner's stored e-mail. */

import { Rich, useI18n } from '@widgets/core/i18n';
import { session } from '@widgets/core/session';
import { useSignalValue } from '@widgets/core/useSignal';
import { Link } from 'react-router';
import { appConfig } from '../../lib/config';

export default function GetLinkPage() {
  const { t } = useI18n();
  const email = useSignalValue(session)?.user.email;
  let mailbox = false;
  try {
    mailbox = appConfig().mailbox;
  } catch {
    // the configuration loads before any page; without it there is simply no mailbox link
  }
  return (
    <div className="page-narrow">
      <div className="card center stack">
        <h1>{t('getLink.title')}</h1>
        <p>
          {email ? (
            <Rich k="getLink.sentTo" values={{ email }} components={{ 0: <strong dir="ltr" /> }} />
          ) : (
            t('getLink.sent')
          )}
        </p>
        <p className="muted">{t('getLink.spam')}</p>
        <div className="form-actions" style={{ justifyContent: 'center' }}>
          {mailbox ? (
            <Link className="btn" to="/mailbox">
              {t('getLink.mailbox')}
            </Link>
          ) : null}
          <Link className={mailbox ? 'btn btn-secondary' : 'btn'} to="/assesments">
            {t('getLink.assessments')}
          </Link>
        </div>
      </div>
    </div>
  );
}
