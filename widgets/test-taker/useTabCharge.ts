import { useEffect, useRef, useState } from 'react';
import { type ChargeState, TabCharge } from './tab-charge';

/** The tab-charge state of a started test (see tab-charge.ts); 'in-charge' at once when not active. */
export function useTabCharge(
  linkId: string,
  active: boolean,
  handOver: { current: (() => Promise<unknown>) | null },
): ChargeState & { takeOver: () => void } {
  const [state, setState] = useState<ChargeState>({ role: 'deciding', others: 0 });
  const charge = useRef<TabCharge | null>(null);
  useEffect(() => {
    if (!active) return;
    const c = new TabCharge({
      linkId,
      onChange: setState,
      beforeHandOver: () => handOver.current?.() ?? Promise.resolve(),
    });
    charge.current = c;
    c.start();
    return () => {
      c.close();
      charge.current = null;
      setState({ role: 'deciding', others: 0 });
    };
  }, [linkId, active, handOver]);
  return { ...state, takeOver: () => charge.current?.takeOver() };
}
