/** What the cohort pages' forms share: a cohort's name field, and a form's refusal said beside it. */
import { COHORT_NAME_MAX } from '@shared/schemas/tenant';

/** A labelled cohort name (1–100 characters), described by the form's error when there is one. */
export function CohortNameField({
  id,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string;
}) {
  return (
    <>
      <label htmlFor={`${id}-name`}>{label}</label>
      <input
        id={`${id}-name`}
        className="input"
        required
        maxLength={COHORT_NAME_MAX}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
    </>
  );
}

/** The server's refusal (or the fallback) as an alert, read out as it appears; `id` ties it to a field. */
export function FormError({ id, error }: { id: string; error: string }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className="alert alert-error" role="alert">
      {error}
    </p>
  );
}
