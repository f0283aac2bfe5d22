/**
 * A small program against the client types openapi-typescript generates from docs/openapi.json
 * (scripts/check-published.mjs writes them to .tmp/published/waymark-api.d.ts and compiles this file):
 * named schemas, documented parameters (a page size the server refuses does not compile) and the
 * responses by status.
 */
import type { components, paths } from '../../.tmp/published/waymark-api';

type Seats = paths['/api/tenant/users/list']['get'];
type PageSize = NonNullable<NonNullable<Seats['parameters']['query']>['limit']>;
type RoadmapSummary = components['schemas']['RoadmapSummary'];
type ErrorBody = components['schemas']['ErrorBody'];

/** The e-mail addresses of a mentor's seats, one page. */
export async function seatEmails(base: string, token: string, limit: PageSize): Promise<string[]> {
  const url = new URL('/api/tenant/users/list', base);
  url.searchParams.set('limit', String(limit));
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status === 400) {
    const error = (await res.json()) as Seats['responses'][400]['content']['application/json'];
    throw new Error(`${error.field}: ${error.message}`);
  }
  const body = (await res.json()) as Seats['responses'][200]['content']['application/json'];
  return body.data.tenantUserList.map((seat) => seat.learnerId.email);
}

/** The public catalogue's names, filtered by subject. */
export async function roadmapNames(base: string, subject: string): Promise<string[]> {
  const url = new URL('/api/roadmap/list/no-auth', base);
  url.searchParams.set('subject', subject);
  const res = await fetch(url);
  const body = (await res.json()) as { data: RoadmapSummary[] } | ErrorBody;
  return 'data' in body ? body.data.map((r) => r.name) : [];
}

export const pageSizes: PageSize[] = [5, 10, 15];
// @ts-expect-error 7 is not a page size the server accepts, and the document says so
export const refused: PageSize = 7;
