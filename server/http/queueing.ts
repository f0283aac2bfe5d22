/**
 * How long work queues in this process before it is served (issue 25 item 7), as the load shedding reads it
 * (protections.ts). Three places, each measured as it is now rather than averaged:
 *
 * - **The event loop's turn.** A request's bytes wait in its socket until the loop comes round to read
 *   them: libuv reads every readable socket at each turn, so they waited at most the turn they waited
 *   through. A timer ticks every TICK_MS; the loop's figure is the longer of how late its last tick came
 *   (the turn just finished: what this turn reads arrived during it — or, an upper bound, just after it;
 *   the next tick replaces it) and how long the loop has gone without a tick now (the turn still running).
 *   under-pressure's figure is the mean over a second of samples, which a few long turns among many short
 *   ones hardly move.
 * - **The accept queue.** A new connection waits in the kernel until a turn accepts it, and its first
 *   request is read only at a turn after that: the connection's first request counts the loop's figure
 *   when it was accepted plus the time since. A connection opened ahead of its request (a browser's
 *   preconnect) sends it later than that bound: past it the time since the accept is not queueing, and is
 *   not counted.
 * - **Before the handler.** From the request's first hook to its handler, the body's transfer aside (a
 *   slow client's upload is not the server's queue): the hooks' own waits (the rate limits' counts in the
 *   database). The oldest such request's wait now.
 *
 * The database pool's own queue is timed beside it (Database.poolWaitMs). Every process measures its own
 * queue and sheds its own requests: with several processes each turns away what it could not serve in time.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The loop's timer period: the resolution of `loopMs` (a turn shorter than this is not seen). */
export const TICK_MS = 20;

export interface QueueWatch {
  /**
   * How long this request, or work a request taken in now would queue behind, has waited already (ms): the
   * longest of the loop's turn, its connection's wait to be accepted, and the oldest request not yet at its
   * handler.
   */
  queuedMs(request: FastifyRequest): number;
}

const waitStart = Symbol('waymark.queueWaitStart');
interface Waiting {
  since: number;
  /** The request's response: one answered or dropped without a hook seeing it leaves the queue too. */
  res: ServerResponse;
}
type Timed = FastifyRequest & { [waitStart]?: Waiting };
const accepted = Symbol('waymark.accepted');
type Accepted = Socket & { [accepted]?: { at: number; queued: number } };

/**
 * Starts the loop's timer (stopped when the app closes), notes when each connection is accepted and times
 * every request's wait for its handler. `limitMs`: the shedding's bound (a first request later than that
 * after its connection's accept was sent late, not queued).
 */
export function watchQueueing(app: FastifyInstance, limitMs: number): QueueWatch {
  let last = performance.now();
  let lastLate = 0;
  // a late tick speaks for what the turn it runs in reads: it arrived during the long turn (or, an upper
  // bound, just after it). libuv's poll phase reads every readable socket in that one turn, so the next
  // tick's figure replaces it: keeping the longest while ticks stayed a little late (a loaded machine) shed
  // every request for as long as the load lasted, long after the stall's requests were answered
  const timer = setInterval(() => {
    const now = performance.now();
    lastLate = Math.max(0, now - last - TICK_MS);
    last = now;
  }, TICK_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  const loopMs = () => Math.max(lastLate, performance.now() - last - TICK_MS, 0);

  // each connection's accept: when, and how long the loop had kept it waiting
  app.server.on('connection', (socket: Accepted) => {
    socket[accepted] = { at: performance.now(), queued: loopMs() };
  });
  /** The first request of a connection: what it waited from its connection's arrival; later ones 0. */
  const sinceArrival = (request: FastifyRequest) => {
    const socket = request.raw.socket as Accepted | undefined;
    const first = socket?.[accepted];
    if (!first) return 0;
    socket[accepted] = undefined;
    const since = performance.now() - first.at;
    return since > limitMs ? 0 : first.queued + since;
  };

  // requests between their first hook and their handler, in arrival order: the first is the oldest
  const waiting = new Set<Waiting>();
  const begin = (request: Timed, res: ServerResponse) => {
    const entry = { since: performance.now(), res };
    request[waitStart] = entry;
    waiting.add(entry);
  };
  const end = (request: Timed) => {
    const entry = request[waitStart];
    if (entry) {
      waiting.delete(entry);
      request[waitStart] = undefined;
    }
  };
  app.addHook('onRequest', (request, reply, done) => {
    begin(request, reply.raw);
    done();
  });
  // the body's transfer is the client's pace: not counted
  app.addHook('preParsing', (request, _reply, payload, done) => {
    end(request);
    done(null, payload);
  });
  app.addHook('preValidation', (request, reply, done) => {
    begin(request, reply.raw);
    done();
  });
  // a request answered before its handler (an error, a 429) or dropped leaves the queue too
  app.addHook('onResponse', (request, _reply, done) => {
    end(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    end(request);
    done();
  });
  // the handler's start ends the wait (at the root's preHandler: a route's own preHandler, which runs
  // after it, and the authentication every handler does first are the handler's work)
  app.addHook('preHandler', (request, _reply, done) => {
    end(request);
    done();
  });

  return {
    queuedMs: (request) => {
      let oldest = waiting.values().next().value;
      // never a request long gone (defensive: every way out runs onResponse or onRequestAbort today, but
      // one that did not would otherwise shed every request after it)
      while (oldest && (oldest.res.writableEnded || oldest.res.destroyed)) {
        waiting.delete(oldest);
        oldest = waiting.values().next().value;
      }
      return Math.max(
        loopMs(),
        sinceArrival(request),
        oldest && oldest !== (request as Timed)[waitStart] ? performance.now() - oldest.since : 0,
      );
    },
  };
}
