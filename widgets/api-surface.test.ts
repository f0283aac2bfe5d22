/**
 * The versioning policy of widgets/package/CHANGELOG.md as widgets/api-surface.mjs checks it: a removed
 * name needs a major version, any change a new version and its changelog entry.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain module of the build scripts, without types
import { compare, releaseProblems } from './api-surface.mjs';

const element = {
  attributes: { 'link-id': [], view: ['auto', 'live'] },
  properties: ['linkId', 'view'],
  events: {
    'wm-load': { detail: { linkId: [] }, cancelable: false },
    'wm-home': { detail: { href: [] }, cancelable: true },
  },
  parts: ['award', 'error'],
  slots: [] as string[],
  cssProperties: ['--wm-primary'],
};
const surface = { elements: { 'wm-award': element }, tokens: ['--wm-primary'] };
const withAward = (change: (e: typeof element) => void) => {
  const copy = structuredClone(surface);
  change(copy.elements['wm-award']);
  return copy;
};
const CHANGELOG = '# Changelog\n\n## 1.3.0\n\n## 2.0.0\n\n## 1.2.0\n';

describe('the elements’ public surface', () => {
  it('names what a release removes: an attribute value, a detail field, a part, cancelability, a token', () => {
    const now = withAward((e) => {
      e.attributes.view = ['auto'];
      e.events['wm-load'].detail = {} as (typeof e.events)['wm-load']['detail'];
      e.events['wm-home'].cancelable = false;
      e.parts = ['award'];
    });
    now.tokens = [];
    expect(compare(surface, now).removed).toEqual([
      'token --wm-primary',
      'wm-award attribute view value live',
      'wm-award event wm-load detail linkId',
      'wm-award event wm-home cancelable',
      'wm-award part error',
    ]);
  });

  it('lets a minor release add, and refuses one that removes', () => {
    const added = withAward((e) => {
      e.slots = ['not-found'];
    });
    const record = { version: '1.2.0', surface };
    expect(releaseProblems(record, added, '1.3.0', CHANGELOG)).toEqual([]);
    const removed = withAward((e) => {
      e.parts = ['award'];
    });
    expect(releaseProblems(record, removed, '1.3.0', CHANGELOG)[0]).toMatch(
      /without a major version.*wm-award part error/,
    );
    expect(releaseProblems(record, removed, '2.0.0', CHANGELOG)).toEqual([]);
  });

  it('asks for a new version and its changelog entry when the surface changed', () => {
    const added = withAward((e) => {
      e.slots = ['not-found'];
    });
    const record = { version: '1.2.0', surface };
    expect(releaseProblems(record, added, '1.2.0', CHANGELOG)[0]).toMatch(
      /still 1\.2\.0.*\+ wm-award slot not-found/,
    );
    expect(releaseProblems(record, added, '1.4.0', CHANGELOG)).toEqual([
      'widgets/package/CHANGELOG.md has no entry "## 1.4.0"',
    ]);
    expect(releaseProblems(record, surface, '1.2.0', CHANGELOG)).toEqual([]);
  });
});
