/**
 * The builds (extension/build.mjs): the store packages are reproducible, carry no test hook and no remote
 * code, pass Mozilla's linter, ask for the permissions extension/README.md justifies and declare the data
 * README.md says Waymark records; the Chromium and Firefox manifests differ only where the browsers do.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogue } from '../scripts/i18n/sources.mjs';
import { chromeName } from '../shared/i18n/extension-messages.mjs';
import { buildExtension } from './build.mjs';
import { DATA_COLLECTED, HOST_PERMISSION, type Manifest, PERMISSIONS, storeVersion } from './manifest.mjs';

const root = resolve(import.meta.dirname, '..');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
const flat = (s: string) => s.replace(/\s+/g, ' ');
const text = (b: Uint8Array) => new TextDecoder().decode(b);

type Files = Record<string, Uint8Array>;
const manifestOf = (files: Files) => JSON.parse(text(files['manifest.json']!)) as Manifest;

/** What differs between the browsers, and nothing else may. */
function withoutBrowserKeys(m: Manifest) {
  const { background, key, minimum_chrome_version, browser_specific_settings, ...rest } = m;
  return rest;
}

let dir: string;
let built: Awaited<ReturnType<typeof buildExtension>>;
let chromium: Files;
let firefox: Files;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-extension-build-'));
  built = await buildExtension({ outDir: join(dir, 'a'), env: {} });
  chromium = unzipSync(readFileSync(built.packages.chromium));
  firefox = unzipSync(readFileSync(built.packages.firefox));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the store packages', () => {
  it('are named for the version of package.json, which both manifests carry', () => {
    expect(built.packages.chromium).toMatch(new RegExp(`waymark-chromium-${version}\\.zip$`));
    expect(built.packages.firefox).toMatch(new RegExp(`waymark-firefox-${version}\\.xpi$`));
    expect(manifestOf(chromium).version).toBe(version);
    expect(manifestOf(firefox).version).toBe(version);
    expect(storeVersion('1.2.3.4')).toBe('1.2.3.4');
    expect(() => storeVersion('1.0.0-beta.1')).toThrow(/package.json "version"/);
    expect(() => storeVersion('1.65536')).toThrow(/each ≤ 65535/);
  });

  it('are the same bytes when built again from the same sources, in another time zone', async () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      const again = await buildExtension({ outDir: join(dir, 'b'), env: {} });
      expect(readFileSync(again.packages.chromium).equals(readFileSync(built.packages.chromium))).toBe(true);
      expect(readFileSync(again.packages.firefox).equals(readFileSync(built.packages.firefox))).toBe(true);
    } finally {
      process.env.TZ = tz;
    }
  }, 120_000);

  it('carry no test hook: only the end-to-end builds have __waymarkTest', () => {
    for (const files of [chromium, firefox])
      expect(text(files['background.js']!)).not.toContain('__waymarkTest');
    for (const b of ['chromium', 'firefox']) {
      expect(readFileSync(join(dir, 'a', `extension-${b}`, 'background.js'), 'utf8')).not.toContain(
        '__waymarkTest',
      );
      // the check can fail: the end-to-end build is the same source with the hooks
      expect(readFileSync(join(dir, 'a', 'e2e', `extension-${b}`, 'background.js'), 'utf8')).toContain(
        '__waymarkTest',
      );
    }
  });

  it('hold the same files, and the same bytes but for the manifest', () => {
    expect(Object.keys(chromium).sort()).toEqual(Object.keys(firefox).sort());
    for (const f of Object.keys(chromium).filter((f) => f !== 'manifest.json'))
      expect(Buffer.from(chromium[f]!).equals(Buffer.from(firefox[f]!)), f).toBe(true);
  });

  it('ask for the same permissions and content scripts in both browsers, and differ only where they do', () => {
    const c = manifestOf(chromium);
    const f = manifestOf(firefox);
    expect(c.permissions).toEqual(f.permissions);
    expect(c.host_permissions).toEqual(f.host_permissions);
    expect(c.content_scripts).toEqual(f.content_scripts);
    expect(withoutBrowserKeys(c)).toEqual(withoutBrowserKeys(f));
    expect(c.background).toEqual({ service_worker: 'background.js' });
    expect(f.background).toEqual({ scripts: ['background.js'] });
    // the unpacked builds too, which also allow the loopback portals and fix the Chromium id
    const unpacked = (b: string) =>
      JSON.parse(readFileSync(join(dir, 'a', `extension-${b}`, 'manifest.json'), 'utf8')) as Manifest;
    expect(withoutBrowserKeys(unpacked('chromium'))).toEqual(withoutBrowserKeys(unpacked('firefox')));
    expect(unpacked('chromium').key).toBeTruthy();
  });

  it('ask for the production portal only when there is one, and for no other site', async () => {
    const prod = await buildExtension({
      outDir: join(dir, 'prod'),
      env: { EXTENSION_PORTAL_URL: 'https://app.waymark.example/dashboard' },
    });
    const m = manifestOf(unzipSync(readFileSync(prod.packages.chromium)));
    expect(m.host_permissions).toEqual(['https://app.waymark.example/*']);
    expect(m.content_scripts[0]!.matches).toEqual(['https://app.waymark.example/*']);
    const unpacked = JSON.parse(
      readFileSync(join(dir, 'prod', 'extension-firefox', 'manifest.json'), 'utf8'),
    ) as Manifest;
    expect(unpacked.host_permissions).toEqual([
      'http://127.0.0.1/*',
      'http://localhost/*',
      'https://app.waymark.example/*',
    ]);
    await expect(
      buildExtension({ outDir: join(dir, 'bad'), env: { EXTENSION_PORTAL_URL: 'http://x.example' } }),
    ).rejects.toThrow(/must use https/);
  }, 120_000);
});

describe('what the Chrome Web Store checks', () => {
  it('has no key (the store refuses one), a short description, its icons, and minimal permissions', () => {
    const m = manifestOf(chromium);
    expect(m).not.toHaveProperty('key');
    expect(m.manifest_version).toBe(3);
    expect((m.description as string).length).toBeLessThanOrEqual(132);
    expect(m.name.length).toBeLessThanOrEqual(45);
    expect(chromium['icons/icon-128.png']).toBeTruthy();
    expect(m.permissions).toEqual(['storage', 'tabs', 'idle', 'alarms']);
    for (const p of m.host_permissions)
      expect(p).toMatch(/^https?:\/\/(127\.0\.0\.1|localhost|[a-z0-9.-]+)\/\*$/);
    expect(m.host_permissions).not.toContain('<all_urls>');
    expect(m.incognito).toBe('not_allowed');
  });

  it('runs no remote code: every script is in the package, nothing evaluates strings', () => {
    const m = manifestOf(chromium);
    expect(m.content_security_policy).toEqual({ extension_pages: "script-src 'self'; object-src 'self'" });
    const html = text(chromium['popup.html']!);
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((x) => x[1]);
    expect(scripts).toEqual(['popup.js']);
    expect(html).not.toMatch(/<script\b(?![^>]*\bsrc=)/);
    for (const file of ['background.js', 'content.js', 'popup.js']) {
      const js = text(chromium[file]!);
      expect(js, file).not.toMatch(/\beval\s*\(/);
      expect(js, file).not.toMatch(/new\s+Function\s*\(/);
      expect(js, file).not.toMatch(/\bimportScripts\s*\(/);
      expect(js, file).not.toMatch(/\bimport\s*\(/);
      expect(js, file).not.toMatch(/createElement\(\s*['"]script['"]/);
    }
  });
});

describe('the languages (decision 040)', () => {
  it('carry the popup and the description in English, Spanish and Arabic, as both browsers read them', () => {
    for (const files of [chromium, firefox]) {
      const m = manifestOf(files);
      expect(m.default_locale).toBe('en');
      expect(m.description).toBe('__MSG_extension_manifest_description__');
      const html = text(files['popup.html']!);
      const named = [...html.matchAll(/data-i18n="([\w.-]+)"/g)].map((x) => chromeName(x[1]!));
      const popup = text(files['popup.js']!);
      for (const locale of ['en', 'es', 'ar']) {
        const messages = JSON.parse(text(files[`_locales/${locale}/messages.json`]!)) as Record<
          string,
          { message: string }
        >;
        const catalogue = readCatalogue(locale);
        expect(messages.extension_manifest_description!.message).toBe(
          catalogue['extension.manifest.description'],
        );
        expect(messages.extension_manifest_description!.message.length, locale).toBeLessThanOrEqual(132);
        for (const name of named) expect(messages[name]?.message, `${locale} ${name}`).toBeTruthy();
        // every message the popup's script asks for by name is there
        for (const [, key] of popup.matchAll(/"(extension\.popup\.\w+)"/g))
          expect(messages[chromeName(key!)]?.message, `${locale} ${key}`).toBeTruthy();
      }
      expect(JSON.parse(text(files['_locales/es/messages.json']!)).extension_popup_today.message).toBe('Hoy');
    }
  });
});

describe('what addons.mozilla.org checks', () => {
  it("passes Mozilla's linter (web-ext lint) without errors or warnings", () => {
    const unpacked = join(dir, 'xpi');
    for (const [name, bytes] of Object.entries(firefox)) {
      mkdirSync(dirname(join(unpacked, name)), { recursive: true });
      writeFileSync(join(unpacked, name), bytes);
    }
    const out = execFileSync(
      join(root, 'node_modules/.bin/web-ext'),
      ['lint', '--source-dir', unpacked, '--output', 'json'],
      {
        encoding: 'utf8',
        timeout: 90_000,
      },
    );
    const report = JSON.parse(out.slice(out.indexOf('{'))) as {
      summary: { errors: number; warnings: number; notices: number };
      errors: unknown[];
      warnings: unknown[];
    };
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.summary).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('declares the data README.md says Waymark records, and no more', () => {
    const gecko = (manifestOf(firefox).browser_specific_settings as { gecko: Record<string, unknown> }).gecko;
    expect(gecko.data_collection_permissions).toEqual({ required: DATA_COLLECTED.map((d) => d.category) });
    const readme = flat(readFileSync(join(root, 'README.md'), 'utf8'));
    const records = readme.slice(readme.indexOf('What Waymark records'));
    const paragraph = records.slice(0, records.indexOf('What was tracked'));
    for (const d of DATA_COLLECTED) expect(paragraph, d.category).toContain(d.readme);
    const extensionReadme = flat(readFileSync(join(root, 'extension/README.md'), 'utf8'));
    for (const d of DATA_COLLECTED) expect(extensionReadme).toContain(`\`${d.category}\`: ${d.what}`);
  });
});

describe('extension/README.md', () => {
  it('says what each permission is for, in the words of the manifest module', () => {
    const readme = flat(readFileSync(join(root, 'extension/README.md'), 'utf8'));
    for (const [name, why] of Object.entries(PERMISSIONS)) expect(readme).toContain(`\`${name}\`: ${why}`);
    expect(readme).toContain(`host permissions: ${HOST_PERMISSION}`);
  });
});
