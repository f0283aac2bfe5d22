import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  /** Escape, or the backdrop: the dialog asks to close. */
  onClose: () => void;
  /** Keep the dialog open on Escape (for steps that must be answered). */
  modalOnly?: boolean;
  role?: 'dialog' | 'alertdialog';
}

/** A modal on the native <dialog>: focus is trapped, Escape closes, focus returns where it was. */
export function Dialog({ open, title, children, actions, onClose, modalOnly, role = 'dialog' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      if (typeof el.showModal === 'function') el.showModal();
      else el.setAttribute('open', '');
    } else if (!open && el.open) {
      if (typeof el.close === 'function') el.close();
      else el.removeAttribute('open');
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      onCancel={(e) => {
        e.preventDefault();
        if (!modalOnly) onClose();
      }}
    >
      {open ? (
        <>
          <div className="dialog-header">
            <h2 id={titleId}>{title}</h2>
          </div>
          {children ? <div className="dialog-body">{children}</div> : null}
          {actions ? <div className="dialog-actions">{actions}</div> : null}
        </>
      ) : null}
    </dialog>
  );
}
