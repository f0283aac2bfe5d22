/** The check step of "Import questions", while the file is read and planned (plan.ts): said as it goes. */
import { useI18n } from '@widgets/core/i18n';
import { Spinner } from '@widgets/ui/Loader';

export function CheckStep() {
  const { t } = useI18n();
  return (
    <p role="status" className="import-status">
      <Spinner /> {t('import.checking')}
    </p>
  );
}
