import { signal } from '@preact/signals-core';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { describe, expect, it } from 'vitest';
import { useSyncExternalStore } from './react-on-preact';

const count = signal(1);
const seen = { renders: 0, listeners: 0 };
const subscribe = (onChange: () => void) => {
  seen.listeners++;
  const stop = count.subscribe(() => onChange());
  return () => {
    seen.listeners--;
    stop();
  };
};
const read = () => count.peek();

function Counter() {
  seen.renders++;
  return h('output', null, String(useSyncExternalStore(subscribe, read)));
}

describe("useSyncExternalStore on Preact's hooks (the lean widgets' stand-in for React's)", () => {
  it('renders the snapshot, follows every change, and stops listening when unmounted', () => {
    const root = document.createElement('div');
    act(() => render(h(Counter, null), root));
    expect(root.textContent).toBe('1');
    expect(seen.listeners).toBe(1);
    act(() => {
      count.value = 2;
    });
    expect(root.textContent).toBe('2');
    const before = seen.renders;
    act(() => {
      count.value = 2; // the same value: no render
    });
    expect(seen.renders).toBe(before);
    act(() => render(null, root));
    expect(seen.listeners).toBe(0);
  });
});
