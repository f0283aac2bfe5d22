/**
 * Chromium with the end-to-end build of the extension (dist/e2e/extension-chromium: the build people install,
 * plus the background's `__waymarkTest` hooks) loaded, in a profile folder of its own.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium } from '@playwright/test';
import config from '../../playwright.config';
import { baseUrl } from './accounts';

export const EXTENSION_DIST = resolve('dist/e2e/extension-chromium');

/** Builds the extension (extension/build.mjs writes every build) when dist/ has none yet. */
export function ensureExtensionBuilt(dist = EXTENSION_DIST) {
  if (!existsSync(join(dist, 'manifest.json'))) execFileSync(process.execPath, ['extension/build.mjs']);
}

export interface ExtensionBrowser {
  context: BrowserContext;
  /** Closes the context and removes its profile folder. */
  close(): Promise<void>;
}

/** A persistent context with the extension loaded; `lang`: the browser's interface language (--lang). */
export async function launchWithExtension(
  prefix: string,
  { lang }: { lang?: string } = {},
): Promise<ExtensionBrowser> {
  ensureExtensionBuilt();
  const userDataDir = mkdtempSync(join(tmpdir(), `waymark-e2e-${prefix}-`));
  const context = await chromium
    .launchPersistentContext(userDataDir, {
      // the run's Chromium and switches (playwright.config.ts), with the extension loaded
      ...config.use?.launchOptions,
      headless: true,
      baseURL: baseUrl(),
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
      ...(lang ? { locale: lang } : {}),
      args: [
        `--disable-extensions-except=${EXTENSION_DIST}`,
        `--load-extension=${EXTENSION_DIST}`,
        ...(lang ? [`--lang=${lang}`] : []),
        ...(config.use?.launchOptions?.args ?? []),
      ],
    })
    .catch((err: unknown) => {
      rmSync(userDataDir, { recursive: true, force: true });
      throw err;
    });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
