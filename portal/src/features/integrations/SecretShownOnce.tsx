/**
 * A secret shown once (an API key, a webhook's signing secret): in a dialog, selected on focus, with Copy
 * (or, where copying is not allowed, selected to copy by hand).
 */
import { Dialog } from '@widgets/ui/Dialog';
import { toast } from '@widgets/ui/Toast';
import { useId, useRef } from 'react';
import { INTEGRATIONS_COPY as COPY } from './copy';

export function SecretShownOnce({
  shown,
  onClose,
}: {
  /** The dialog's title, what it says, the secret's label and the secret; null: closed. */
  shown: { title: string; text: string; label: string; secret: string } | null;
  onClose: () => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown?.secret ?? '');
      toast(COPY.copied, { kind: 'success', ms: 3000 });
    } catch {
      input.current?.select();
      toast(COPY.copyByHand, { kind: 'info', ms: 5000 });
    }
  };
  return (
    <Dialog
      open={shown !== null}
      title={shown?.title ?? ''}
      onClose={onClose}
      actions={
        <button type="button" className="btn" onClick={onClose}>
          Done
        </button>
      }
    >
      <p>{shown?.text}</p>
      <div className="key-once">
        <label htmlFor={id} className="visually-hidden">
          {shown?.label}
        </label>
        <input
          ref={input}
          id={id}
          type="text"
          readOnly
          value={shown?.secret ?? ''}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="btn btn-secondary" onClick={copy}>
          Copy
        </button>
      </div>
    </Dialog>
  );
}
