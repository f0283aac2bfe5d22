/**
 * The background script of the builds people install (dist/extension-*, the store packages): the
 * background of worker.ts, nothing else. The end-to-end builds use background-e2e.ts instead.
 */
import { startBackground } from './worker';

startBackground();
