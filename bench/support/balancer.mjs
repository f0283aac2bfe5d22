#!/usr/bin/env node
/**
 * A small loopback load balancer for the scale-out benchmark: round robin over the backends, keep-alive
 * connections to each, the request and response streamed through unchanged (plus X-Forwarded-For). Runs
 * in a process of its own so it shares an event loop with neither the load nor a server.
 *
 *   node bench/support/balancer.mjs --port 8000 --to 8001,8002,8003
 *
 * Prints `ready <port>` on stdout once it listens; SIGTERM stops it.
 */
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, to: { type: 'string' } } });
const backends = String(values.to ?? '')
  .split(',')
  .filter(Boolean)
  .map((port) => ({ port: Number(port), agent: new http.Agent({ keepAlive: true, maxSockets: 128 }) }));
if (!backends.length || !values.port) {
  console.error('usage: node bench/support/balancer.mjs --port N --to PORT[,PORT…]');
  process.exit(2);
}

let next = 0;
const server = http.createServer((req, res) => {
  const backend = backends[next++ % backends.length];
  const upstream = http.request(
    {
      host: '127.0.0.1',
      port: backend.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
      agent: backend.agent,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('bad gateway');
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 30_000;
server.listen(Number(values.port), '127.0.0.1', () => console.log(`ready ${values.port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
