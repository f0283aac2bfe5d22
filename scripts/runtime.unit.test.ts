import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assertPinnedNode, PINNED_NODE } from './runtime.mjs';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('the pinned Node.js', () => {
  it('is a Node 24 LTS release, and the tests run on it', () => {
    expect(PINNED_NODE).toMatch(/^24\.\d+\.\d+$/);
    expect(process.versions.node).toBe(PINNED_NODE);
    expect(() => assertPinnedNode('`npm test`')).not.toThrow();
  });

  it('is the one the README tells people to install with, and engines allow it', () => {
    const readme = read('README.md');
    const named = [...readme.matchAll(/node@(\d+\.\d+\.\d+)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([PINNED_NODE]));
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
    expect(pkg.engines.node).toMatch(/^>=24\./);
  });

  it('is installed by .ci/run from package.json, not from a copy of the number', () => {
    const ci = read('.ci/run');
    expect(ci).toContain('dependencies.node');
    expect(ci).toMatch(/npx -y -p "node@\$\{node_version\}" -- npm ci/);
    expect(ci).not.toMatch(/node@\d/);
  });
});
