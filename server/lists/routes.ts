/** The lists' calls (shared/contract/lists.ts), each a call to lists.ts with how long it may be cached. */
import { listsRouter } from '@shared/contract/lists';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { ok, serve } from '../http/routes';
import { allCountries, loadLanguages, loadSubjects } from './lists';

export function listRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const countries = allCountries();
  serve(app, listsRouter, {
    async subjectList({ reply }) {
      reply.header('cache-control', 'public, max-age=60');
      return ok({ data: await loadSubjects(db) });
    },
    async languageList({ reply }) {
      reply.header('cache-control', 'public, max-age=60');
      return ok({ data: await loadLanguages(db) });
    },
    async countryList({ reply }) {
      reply.header('cache-control', 'public, max-age=86400');
      return ok({ data: countries });
    },
  });
}
