import type { ReactNode } from 'react';
import { useI18n } from '../core/i18n';
import { messageOf } from '../core/useCall';

export interface LoadFailedProps {
  /** What the load threw: its message is shown (an ApiError carries the server's wording). */
  error?: unknown;
  /** Shown when the error carries no message of its own (a network failure). */
  fallback?: string;
  /** The page's own wording instead of the error's. */
  children?: ReactNode;
  className?: string;
  /** The shadow part, for an element's stylable error. */
  part?: string;
}

/**
 * Said in place of what could not be loaded: one alert (`role="alert"`, read out as it appears) with the
 * error's message, the fallback, or the page's own words. Every page and widget shows a failed load this
 * way.
 */
export function LoadFailed({
  error,
  fallback,
  children,
  className = 'alert alert-error',
  part,
}: LoadFailedProps) {
  const { t } = useI18n();
  return (
    <p className={className} role="alert" part={part}>
      {children ?? messageOf(error, fallback ?? t('common.somethingWentWrong'))}
    </p>
  );
}
