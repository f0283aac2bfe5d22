/**
 * Opens a URL in the person's browser: `open` on macOS, `xdg-open` on Linux and other Unixes (only with a
 * display, so a server's shell never starts a text browser), `start` on Windows. Never waits for the
 * browser and never fails: false means the person opens the link themselves.
 */
import { spawn } from 'node:child_process';

export interface OpenDeps {
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  spawn?: typeof spawn;
}

export function browserCommand(
  url: string,
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): [string, string[]] | null {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  return ['xdg-open', [url]];
}

export function openBrowser(url: string, deps: OpenDeps = {}): Promise<boolean> {
  const command = browserCommand(url, deps.platform ?? process.platform, deps.env ?? process.env);
  if (!command) return Promise.resolve(false);
  const run = deps.spawn ?? spawn;
  return new Promise((resolve) => {
    try {
      const child = run(command[0], command[1], { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
