/**
 * The queue before the handler (server/http/queueing.ts): a request held between its first hook and its
 * handler (here a route's own preValidation, as a hook's wait for the database would be) makes a request
 * taken in meanwhile see its wait; once it reaches its handler the queue is empty again.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { watchQueueing } from './queueing';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let app: FastifyInstance;
afterEach(() => app?.close());

async function appWith(limitMs: number) {
  app = Fastify();
  const queue = watchQueueing(app, limitMs);
  app.addHook('onRequest', (request, reply, done) => {
    if (queue.queuedMs(request) > limitMs) reply.code(503).send({ shed: true });
    else done();
  });
  app.get('/slow', { preValidation: async () => sleep(400) }, async () => ({ ok: true }));
  app.get('/fast', async () => ({ ok: true }));
  await app.ready();
  return queue;
}

const fast = async () => (await app.inject({ method: 'GET', url: '/fast' })).statusCode;

/** A request to /fast 300 ms into a /slow one's 400 ms wait before its handler: /fast's status, then /slow's. */
async function fastDuringSlow(limitMs: number) {
  await appWith(limitMs);
  const slow = app.inject({ method: 'GET', url: '/slow' });
  await sleep(300);
  return [await fast(), (await slow).statusCode];
}

describe('the wait before the handler', () => {
  it('sheds a request taken in while another has waited past the bound before its handler', async () => {
    expect(await fastDuringSlow(200)).toEqual([503, 200]);
    // it reached its handler: nothing waits any more
    expect(await fast()).toBe(200);
  });

  it('does not shed while the wait is within the bound', async () => {
    expect(await fastDuringSlow(1000)).toEqual([200, 200]);
  });
});
