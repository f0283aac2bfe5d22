import type { ComponentType } from 'react';

/** A lazily loaded screen: one chunk per route. */
export const lazyPage = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});
