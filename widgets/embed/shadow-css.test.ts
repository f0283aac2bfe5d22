import { describe, expect, it } from 'vitest';
import { remToPx, tokensFromPage } from './shadow-css';

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

describe('tokensFromPage', () => {
  it("declares the element's defaults under names of their own, in :host rules only (nested ones too)", () => {
    const css = `:root,
:host { --wm-primary: #3730a3; --wm-gap: calc(var(--wm-space) * 2); --_wm-divider: #e5e7eb }
@supports (color: light-dark(#000, #fff)) { :root, :host { --wm-primary: light-dark(#3730a3, #a5b4fc) } }
.btn { --wm-primary: red; color: var(--wm-primary) }`;
    expect(tokensFromPage(css)).toBe(`:root,
:host { --_wm-primary: #3730a3; --_wm-gap: calc(var(--wm-space, var(--_wm-space)) * 2); --_wm-divider: #e5e7eb }
@supports (color: light-dark(#000, #fff)) { :root, :host { --_wm-primary: light-dark(#3730a3, #a5b4fc) } }
.btn { --wm-primary: red; color: var(--wm-primary, var(--_wm-primary)) }`);
  });

  it('reads every token from the page first, then the default, then the fallback written', () => {
    expect(
      tokensFromPage(
        'a{box-shadow:var(--wm-award-shadow, 0 2px 6px rgb(16 24 40 / 8%));color:var(--wm-accent,#3730a3)}',
      ),
    ).toBe(
      'a{box-shadow:var(--wm-award-shadow, var(--_wm-award-shadow, 0 2px 6px rgb(16 24 40 / 8%)));color:var(--wm-accent, var(--_wm-accent,#3730a3))}',
    );
    expect(tokensFromPage('a{color:var(--wm-x, var(--wm-y))}')).toBe(
      'a{color:var(--wm-x, var(--_wm-x, var(--wm-y, var(--_wm-y))))}',
    );
    // internal shades and other properties stay as they are
    const css = 'a{color:var(--_wm-divider);width:var(--other)}';
    expect(tokensFromPage(css)).toBe(css);
  });
});
