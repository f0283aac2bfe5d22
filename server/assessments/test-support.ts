/**
 * Shortcuts for the end-to-end tests, registered only when NODE_ENV=test (never in development or
 * production, see `assessmentRoutes`): a browser test cannot wait a week for a test link to expire.
 *
 *   PUT /api/test-support/testlink/{linkId}/expire
 *     Moves the expiry of an unused link (one not started yet) into the past. Only the link's learner may
 *     ask. Nothing else changes: the next call that touches the link finds it expired by the usual rules
 *     (`settle`), so the page under test shows what a learner sees a week later.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { conflict, forbidden, notFound } from '../http/errors';
import { API_PREFIX } from '../http/routes';
import { findLink } from './engine/link-life';
import { testLinks } from './tables';

export const TEST_SUPPORT_PREFIX = `${API_PREFIX}/test-support`;

export function testSupportRoutes(app: FastifyInstance, deps: { db: Db; now?: () => Date }) {
  const clock = () => (deps.now ? deps.now() : new Date());
  app.put<{ Params: { linkId: string } }>(
    `${TEST_SUPPORT_PREFIX}/testlink/:linkId/expire`,
    async (request) => {
      const caller = await app.authenticate(request);
      const link = await findLink(deps.db, request.params.linkId);
      if (!link) throw notFound('errors.testLinkNotFound');
      if (link.userId !== caller.id) throw forbidden('This test belongs to another person.');
      if (link.startedAt) throw conflict('This test has started: only an unused link can expire.');
      await deps.db
        .update(testLinks)
        .set({ expiresAt: new Date(clock().getTime() - 1000) })
        .where(and(eq(testLinks.id, link.id), isNull(testLinks.startedAt)));
      return { data: { ok: true } };
    },
  );
}
