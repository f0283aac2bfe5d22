/** A secret shown once (an API key, a SCIM token, a webhook endpoint's signing secret): to copy before the dialog closes. */

import { useI18n } from '@widgets/core/i18n';
import { Dialog } from '@widgets/ui/Dialog';
import { toast } from '@widgets/ui/Toast';
import { useId, useRef } from 'react';

export function SecretShownOnce({
  title,
  label,
  secret,
  onClose,
  intro,
  children,
}: {
  title: string;
  label: string;
  secret: string | null;
  onClose: () => void;
  intro?: string;
  children?: React.ReactNode;
}) {
  const { t } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret ?? '');
      toast(t('integrations.secret.copied'), { kind: 'success', ms: 3000 });
    } catch {
      input.current?.select();
      toast(t('integrations.secret.copyByHand'), { kind: 'info', ms: 5000 });
    }
  };
  return (
    <Dialog
      open={secret !== null}
      title={title}
      onClose={onClose}
      actions={
        <button type="button" className="btn" onClick={onClose}>
          {t('integrations.secret.done')}
        </button>
      }
    >
      <p>{intro ?? t('integrations.secret.shownOnce')}</p>
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
          {t('integrations.secret.copy')}
        </button>
      </div>
    </Dialog>
  );
}
