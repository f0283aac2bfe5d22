/**
 * The Firefox suite's set-up: the end-to-end tests' own (tests/e2e/global-setup.ts: the real server on a
 * free port with a fresh data folder, and the Auth emulator unless WAYMARK_E2E_EMULATOR_HOST names one),
 * after checking that what it serves and installs is built.
 */
import { existsSync } from 'node:fs';
import e2eSetup from '../e2e/global-setup';
import { EXTENSION_DIR, FIREFOX_PATH } from './firefox';

export default async function setup() {
  if (!existsSync(FIREFOX_PATH))
    throw new Error(`${FIREFOX_PATH} is missing: apt-get install -y firefox-esr (or set FIREFOX_PATH)`);
  for (const built of ['dist/portal/index.html', `${EXTENSION_DIR}/manifest.json`])
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
  return e2eSetup();
}
