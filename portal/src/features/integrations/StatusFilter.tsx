/** A list's status filter (webhook deliveries, LRS statements) and its Refresh, as the list's first tools. */
import { Field } from '@widgets/ui/Field';

export function StatusFilter<S extends string>({
  statuses,
  value,
  onChange,
  onRefresh,
}: {
  /** Each status with its words. */
  statuses: Record<S, string>;
  /** '' : all. */
  value: S | '';
  onChange: (value: S | '') => void;
  onRefresh: () => void;
}) {
  return (
    <>
      <Field label="Status">
        <select value={value} onChange={(e) => onChange(e.target.value as S | '')}>
          <option value="">All</option>
          {(Object.entries(statuses) as [S, string][]).map(([status, label]) => (
            <option key={status} value={status}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <button type="button" className="btn btn-secondary" onClick={onRefresh}>
        Refresh
      </button>
    </>
  );
}
