/**
 * The project runs on the Node.js that package.json pins as a dependency (the npm package `node`, which
 * installs a real Node binary into node_modules/.bin): npm scripts and npx find it first on PATH, so
 * `npm start` and `npm test` run on it whatever Node the machine has. This module says which version that
 * is and refuses to go on under another one, naming the command that would have used the right one.
 */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The exact Node.js version the project pins (package.json `dependencies.node`). */
export const PINNED_NODE = pkg.dependencies.node;

/**
 * Throws unless this process runs on the pinned Node.js. `how` names the command to use instead.
 * @param {string} how
 */
export function assertPinnedNode(how) {
  const running = process.versions.node;
  if (running === PINNED_NODE) return;
  throw new Error(
    `Waymark runs on Node.js ${PINNED_NODE}, the version package.json pins; this is Node.js ${running}. ` +
      `Run it as ${how} after \`npx -y -p node@${PINNED_NODE} -- npm ci\`, which installs that Node into node_modules.`,
  );
}
