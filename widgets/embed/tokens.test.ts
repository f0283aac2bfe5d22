/**
 * The design tokens have one source (widgets/ui/styles.css): its two blocks agree on every light value,
 * every dark value has its token, and every element documents a token's default as the token's own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain module of the build scripts, without types
import { designTokens, lightAndDark, side } from './tokens.mjs';
import widgets from './widgets.json';

interface Token {
  name: string;
  light: string;
  dark: string;
  lightOfDarkBlock: string | null;
  description?: string;
}
const css = readFileSync(join(process.cwd(), 'widgets/ui/styles.css'), 'utf8');
const tokens = designTokens(css) as { public: Token[]; internal: Token[]; darkOnly: string[] };

describe('the design tokens', () => {
  it('read light-dark() pairs', () => {
    expect(lightAndDark('light-dark(#fff, rgb(0 0 0 / 40%))')).toEqual(['#fff', 'rgb(0 0 0 / 40%)']);
    expect(side('0 0 0 3px light-dark(rgb(1 2 3 / 4%), #fff)', 1)).toBe('0 0 0 3px #fff');
  });

  it('have the same light value in both blocks, and no dark value without its token', () => {
    expect(tokens.darkOnly).toEqual([]);
    const differ = [...tokens.public, ...tokens.internal]
      .filter((t) => t.lightOfDarkBlock !== null && t.lightOfDarkBlock !== t.light)
      .map((t) => `${t.name}: ${t.light} / ${t.lightOfDarkBlock}`);
    expect(differ).toEqual([]);
  });

  it('give every colour a dark value and every public token a description', () => {
    const colours = [...tokens.public, ...tokens.internal].filter((t) => /^#|rgb\(/.test(t.light));
    expect(colours.filter((t) => t.dark === t.light).map((t) => t.name)).toEqual(['--_wm-code-text']);
    expect(tokens.public.filter((t) => !t.description).map((t) => t.name)).toEqual([]);
  });

  it("are documented by each element with the token's own default", () => {
    const byName = new Map(tokens.public.map((t) => [t.name, t.light]));
    const wrong: string[] = [];
    for (const { entry, tag } of Object.values(widgets)) {
      const source = readFileSync(join(process.cwd(), 'widgets', entry), 'utf8');
      for (const m of source.matchAll(/@cssprop\s+\{[^}]*\}\s+\[(--wm-[\w-]+)=([^\]]+)\]/g)) {
        const light = byName.get(m[1]!);
        if (light === undefined) continue;
        // a font stack is documented by its first family
        const ok = m[1] === '--wm-font' ? light.startsWith(m[2]!) : light === m[2];
        if (!ok) wrong.push(`<${tag}> ${m[1]}=${m[2]}, the token is ${light}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
