/** A list's status filter (webhook deliveries, LRS statements) and its Refresh, as the list's first tools. */
import type { MessageKey } from '@shared/i18n/keys';
import { useI18n } from '@widgets/core/i18n';
import { Field } from '@widgets/ui/Field';

export function StatusFilter<S extends string>({
  statuses,
  value,
  onChange,
  onRefresh,
}: {
  /** Each status with the key of its words. */
  statuses: Record<S, MessageKey>;
  /** '' : all. */
  value: S | '';
  onChange: (value: S | '') => void;
  onRefresh: () => void;
}) {
  const { t } = useI18n();
  return (
    <>
      <Field label={t('integrations.status')}>
        <select value={value} onChange={(e) => onChange(e.target.value as S | '')}>
          <option value="">{t('integrations.all')}</option>
          {(Object.entries(statuses) as [S, MessageKey][]).map(([status, label]) => (
            <option key={status} value={status}>
              {t(label)}
            </option>
          ))}
        </select>
      </Field>
      <button type="button" className="btn btn-secondary" onClick={onRefresh}>
        {t('integrations.refresh')}
      </button>
    </>
  );
}
