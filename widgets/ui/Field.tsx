import { fieldText } from '@shared/i18n/form-words';
import { cloneElement, type ReactElement, type ReactNode, useId } from 'react';
import { useI18n } from '../core/i18n';

export interface FieldProps {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  /** The control: an input, select or textarea. It receives id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  required?: boolean;
}

/**
 * A labelled control with its hint and its error, wired for assistive technology. An error that is a key
 * of the catalogues (the shared schemas' messages are) or a schema's English ('Required') is said in the
 * reader's language (`fieldText`); zod's own complaints are said in it by the form (`useFormWords`).
 */
export function Field({ label, error, hint, children, required }: FieldProps) {
  const translator = useI18n();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const controlId = (children.props.id as string | undefined) ?? id;
  return (
    <div className="field">
      <label htmlFor={controlId}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {cloneElement(children, {
        id: controlId,
        'aria-invalid': error ? 'true' : undefined,
        'aria-describedby': described,
        'aria-required': required || undefined,
      })}
      {hint ? (
        <span id={hintId} className="hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {fieldText(translator, error)}
        </p>
      ) : null}
    </div>
  );
}
