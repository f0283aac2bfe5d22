/** Small pieces the mentor portal's pages share. */
import { useId } from 'react';
import { TENANT_COPY } from './copy';
import './tenant.css';

/** 'Failed' / 'At this time, we are unable to obtain the data…' (mentor §8 tenant tables). */
export function TableFailure() {
  return (
    <div className="alert alert-error" role="alert">
      <strong>{TENANT_COPY.failedTitle}</strong>&nbsp;{TENANT_COPY.failedText}
    </div>
  );
}

/** A word with a tooltip shown on hover and on keyboard focus, and read as the word's description. */
export function Tip({ label, tip, className }: { label: string; tip: string; className?: string }) {
  const id = useId();
  return (
    <span className="tip-wrap">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users get the tooltip too */}
      <span className={className} tabIndex={0} aria-describedby={id}>
        {label}
      </span>
      <span role="tooltip" id={id} className="tip">
        {tip}
      </span>
    </span>
  );
}

/** A figure of one kind (FEATHER, BADGE, CERTIFICATE) for counter rows. */
export function Counter({ label, value }: { label: string; value: number | string }) {
  return (
    <li className="counter">
      <strong>{value}</strong> <span>{label}</span>
    </li>
  );
}
