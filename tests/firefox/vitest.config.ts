import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The extension and the portal in Debian's Firefox (firefox-esr) against the real server and the Auth
 * emulator: `npx vitest run --config tests/firefox/vitest.config.ts` (npm test's e2e-firefox step, after
 * the Chromium step's build). One file at a time, one browser each.
 */
const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: r('../..'),
  // the project's import aliases (tsconfig.json paths), as the other test projects have them
  resolve: {
    alias: { '@shared': r('../../shared'), '@server': r('../../server'), '@widgets': r('../../widgets') },
  },
  test: {
    name: 'firefox',
    include: ['tests/firefox/**/*.test.ts'],
    globalSetup: ['tests/firefox/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    retry: process.env.CI ? 1 : 0,
  },
});
