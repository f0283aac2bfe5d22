import { useEffect } from 'react';

/**
 * Calls `reload` when the person comes back to this tab (after taking a test in another one), so scores
 * and statuses are current without a manual refresh.
 */
export function useReloadOnReturn(reload: () => void) {
  useEffect(() => {
    if (typeof document === 'undefined') return;
    const onChange = () => {
      if (document.visibilityState === 'visible') reload();
    };
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, [reload]);
}
