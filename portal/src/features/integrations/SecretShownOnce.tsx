/** A secret Waymark keeps only a hash of (an API key, a SCIM token), shown once: to copy before the dialog closes. */
import { Dialog } from '@widgets/ui/Dialog';
import { toast } from '@widgets/ui/Toast';
import { useId, useRef } from 'react';
import { INTEGRATIONS_COPY as COPY } from './copy';

export function SecretShownOnce({
  title,
  label,
  secret,
  onClose,
  intro = COPY.shownOnce,
  children,
}: {
  title: string;
  label: string;
  secret: string | null;
  onClose: () => void;
  intro?: string;
  children?: React.ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret ?? '');
      toast(COPY.copied, { kind: 'success', ms: 3000 });
    } catch {
      input.current?.select();
      toast(COPY.copyByHand, { kind: 'info', ms: 5000 });
    }
  };
  return (
    <Dialog
      open={secret !== null}
      title={title}
      onClose={onClose}
      actions={
        <button type="button" className="btn" onClick={onClose}>
          Done
        </button>
      }
    >
      <p>{intro}</p>
      {children}
      <div className="key-once">
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input
          ref={input}
          id={id}
          type="text"
          readOnly
          value={secret ?? ''}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn btn-secondary" onClick={copy}>
          Copy
        </button>
      </div>
    </Dialog>
  );
}
