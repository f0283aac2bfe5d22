/**
 * Serving a router (routes.ts `serve`): one handler per call of the router, no other. A handler map that
 * misses a call, or names one the router has not, does not compile (the `@ts-expect-error` lines below fail
 * the type check — `npx tsc` — the day they compile) and is refused when the app is built, naming the call.
 */
import { listsRouter } from '@shared/contract/lists';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ok, serve } from './routes';

const subjects = async () => ok({ data: [] });
const english = { _id: '00000000-0000-4000-8000-000000000001', name: 'English' };
const languages = async () => ok({ data: [english] });
const countries = async () => ok({ data: [{ code: 'IN', country: 'India' }] });

describe('serve', () => {
  it('registers every call of a router at its method and path', async () => {
    const app = Fastify();
    serve(app, listsRouter, { subjectList: subjects, languageList: languages, countryList: countries });
    await app.ready();
    for (const call of Object.values(listsRouter)) {
      expect(app.hasRoute({ method: call.method, url: `/api${call.path}` }), call.path).toBe(true);
    }
    const res = await app.inject({ method: 'GET', url: `/api${listsRouter.languageList.path}` });
    expect(res.json()).toEqual({ data: [english] });
    await app.close();
  });

  it('does not compile, and refuses, a router served without one of its handlers', () => {
    const app = Fastify();
    expect(() =>
      // @ts-expect-error countryList has no handler
      serve(app, listsRouter, { subjectList: subjects, languageList: languages }),
    ).toThrow('serve: no handler for countryList');
  });

  it('does not compile, and refuses, a handler for a call the router does not have', () => {
    const app = Fastify();
    expect(() =>
      serve(app, listsRouter, {
        subjectList: subjects,
        languageList: languages,
        countryList: countries,
        // @ts-expect-error topicList is no call of the router
        topicList: subjects,
      }),
    ).toThrow('serve: topicList is no call of the router');
  });
});
