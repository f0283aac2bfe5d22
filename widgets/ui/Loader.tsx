import { useI18n } from '../core/i18n';
export function Spinner({ label }: { label?: string }) {
  if (!label) return <span className="spinner" aria-hidden="true" />;
  return (
    <span className="spinner" role="status">
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

export function Loader({ text }: { text?: string }) {
  const { t } = useI18n();
  return (
    <div className="loader" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{text ?? t('common.loading')}</span>
    </div>
  );
}
