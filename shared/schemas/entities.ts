/**
 * The API's named entities. A schema registered here with an id — `z.object({…}).register(entities, { id:
 * 'User' })`, at its definition — is `components.schemas.User` in the OpenAPI document, referenced wherever
 * the schema appears (server/http/openapi.ts); `.register` returns the schema itself, so the name stays with
 * that one instance however it is imported or re-exported. Unregistered schemas are written inline.
 *
 * A registry of its own rather than zod's global one: the global registry also holds every `.describe()`
 * and `.meta()` of the code, which the document does not show.
 */
import { z } from 'zod';

export const entities = z.registry<{ id: string }>();
