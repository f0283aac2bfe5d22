/**
 * A partner's web site on a second origin: a plain static server (node:http) on the port the global setup
 * reserved (WAYMARK_E2E_PARTNER_PORT, listed in the Waymark server's CORS_ORIGINS), serving
 * - pages a spec writes (`site.page('/plain/x.html', html)`), and
 * - built single-page apps mounted at a prefix (`site.mount('/react/', folder)`): a path without a file
 *   gets the app's index.html, as a partner's host does for client-side routing.
 * - pages with headers of their own (`site.page(path, html, { headers })`: a Content Security Policy), and
 *   the reports such a policy sends (`report-uri /csp-report`: `site.cspReports`).
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
  /** A page (or any file, by its extension) at `path`; its address. */
  page(path: string, html: string, opts?: { headers?: Record<string, string> }): string;
  /** The violation reports Content Security Policies of the site's pages sent (`report-uri /csp-report`). */
  cspReports: unknown[];
  mount(prefix: string, folder: string): void;
  close(): Promise<void>;
}

export async function startPartnerSite(): Promise<PartnerSite> {
  const port = Number(process.env.WAYMARK_E2E_PARTNER_PORT);
  if (!port) throw new Error('WAYMARK_E2E_PARTNER_PORT is not set: run the tests through Playwright');
  const pages = new Map<string, { body: string; headers: Record<string, string> }>();
  const cspReports: unknown[] = [];
  const mounts: { prefix: string; folder: string }[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const send = (
      status: number,
      type: string,
      body: string | Buffer,
      headers: Record<string, string> = {},
    ) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(body);
    };
    if (path === '/csp-report' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      req.on('end', () => {
        try {
          cspReports.push(JSON.parse(body));
        } catch {
          cspReports.push(body);
        }
        send(204, 'text/plain', '');
      });
      return;
    }
    // a page has an icon, or the browser's request for one is a 404 in the console
    if (path === '/favicon.ico')
      return send(200, 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const found = pages.get(path);
    if (found !== undefined)
      return send(200, TYPES[extname(path)] ?? TYPES['.html']!, found.body, found.headers);
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
    page(path, body, opts = {}) {
      pages.set(path, { body, headers: opts.headers ?? {} });
      return origin + path;
    },
    cspReports,
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
