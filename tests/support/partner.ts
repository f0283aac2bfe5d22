/**
 * A partner's web site on a second origin: a plain static server (node:http) on the port the global setup
 * reserved (WAYMARK_E2E_PARTNER_PORT, listed in the Waymark server's CORS_ORIGINS), serving
 * - pages a spec writes (`site.page('/plain/x.html', html)`), and
 * - built single-page apps mounted at a prefix (`site.mount('/react/', folder)`): a path without a file
 *   gets the app's index.html, as a partner's host does for client-side routing.
 * It knows nothing of Waymark: the elements come from the Waymark server (script tags) or from the npm
 * package built into the apps.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

export interface PartnerSite {
  origin: string;
  page(path: string, html: string): string;
  mount(prefix: string, folder: string): void;
  close(): Promise<void>;
}

export async function startPartnerSite(): Promise<PartnerSite> {
  const port = Number(process.env.WAYMARK_E2E_PARTNER_PORT);
  if (!port) throw new Error('WAYMARK_E2E_PARTNER_PORT is not set: run the tests through Playwright');
  const pages = new Map<string, string>();
  const mounts: { prefix: string; folder: string }[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    const html = pages.get(path);
    if (html !== undefined) return send(200, TYPES[extname(path)] ?? TYPES['.html']!, html);
    const mount = mounts.find((m) => path.startsWith(m.prefix));
    if (mount) {
      const rel = normalize(path.slice(mount.prefix.length)).replace(/^(\.\.[/\\])+/, '');
      const file = join(mount.folder, rel);
      if (rel && existsSync(file) && statSync(file).isFile()) {
        return send(200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
      }
      // a route of the app: its index.html (a missing asset is a 404, as on a real host)
      if (!extname(rel)) return send(200, TYPES['.html']!, readFileSync(join(mount.folder, 'index.html')));
    }
    send(404, 'text/plain', 'Not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    page(path, body) {
      pages.set(path, body);
      return origin + path;
    },
    mount(prefix, folder) {
      mounts.push({ prefix, folder });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A plain partner page: a heading, the body given, and module scripts. */
export function partnerPage(title: string, body: string, opts: { head?: string; script?: string } = {}) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${opts.head ?? ''}</head><body><main><h1>${title}</h1>${body}</main>${opts.script ? `<script type="module">${opts.script}</script>` : ''}</body></html>`;
}
