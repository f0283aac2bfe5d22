import { describe, expect, it } from 'vitest';
import { remToPx } from './shadow-css';

describe('remToPx', () => {
  it('turns rem lengths into pixels of the element base', () => {
    expect(remToPx('h2{font-size:1.5rem;margin:.25rem -0.5rem 0 1rem}')).toBe(
      'h2{font-size:24px;margin:4px -8px 0 16px}',
    );
    expect(remToPx('a{width:calc(100% - 2rem)}')).toBe('a{width:calc(100% - 32px)}');
  });

  it('leaves names, colours and quoted text alone', () => {
    const css = '.x2rem,.lorem{content:"3rem";grid-area:a1rem;color:#1rem}';
    expect(remToPx(css)).toBe(css);
  });
});
