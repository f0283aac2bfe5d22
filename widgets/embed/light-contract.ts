/**
 * The contract's calls without their zod schemas, for the embed build: `vite.embed.config.ts` replaces
 * each `shared/contract/<module>.ts` a widget imports by `lightContract(<that module>)`, so a widget
 * imports its calls from the contract like the portal does (one declaration of each path) while its
 * element file carries neither zod (about 30 KB gzip, twice an element's budget) nor the schemas.
 * A light call keeps what the client reads — method, path, access, and a download's content types — and
 * the declaration's shape with empty schemas; the client never validates a response. Only the calls of the
 * module's routers (shared/contract/registry.ts) are kept: a widget importing one of the contract's schemas
 * at run time fails the embed build (missing export), where it would otherwise bring zod back.
 */
import type { CallDef, Router } from '../../shared/contract/define';

/** A call as the element files carry it. */
export type LightCall = Pick<
  CallDef,
  'method' | 'path' | 'access' | 'summary' | 'tags' | 'responses' | 'download'
>;

export function lightCall(call: CallDef): LightCall {
  return {
    method: call.method,
    path: call.path,
    access: call.access,
    summary: '',
    tags: [],
    responses: {},
    ...(call.download ? { download: { contentTypes: call.download.contentTypes } } : {}),
  };
}

/**
 * The source of a contract module's light twin: one re-export per call, nothing else. Each call is a
 * module of its own (`callId(name)` names it, `lightCallModule` makes it), so the bundler places each
 * call with the code that uses it — an element's own calls in its own file, a call two elements make in
 * the shared runtime — as it places any other module.
 */
export function lightContract(routers: readonly Router[], callId: (name: string) => string): string {
  // in a module namespace's order (by name), as the build has always met them: the chunks come out the same
  return routers
    .flatMap((router) => Object.keys(router))
    .sort()
    .map((name) => `export { ${name} } from ${JSON.stringify(callId(name))};`)
    .join('\n');
}

/** The module of one light call. */
export function lightCallModule(name: string, call: CallDef): string {
  return `export const ${name} = ${JSON.stringify(lightCall(call))};`;
}
