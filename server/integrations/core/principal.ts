/**
 * Who is asking (decision 039). Every request's caller carries a principal — a person, an API key, a SCIM
 * token or an LTI platform — and authorization asks the same questions of each: its role, its tenant, its
 * scopes. What a change records of its author is its actor: the principal as the audit log names it, with
 * where the request came from. Changes a scheduled job makes are Waymark's own (`systemActor`).
 */
import type { ActorKind, ApiScope } from '@shared/schemas/integrations';

export type Principal =
  | { kind: 'person'; userId: string }
  | { kind: 'apiKey'; keyId: string; tenantId: string; scopes: readonly ApiScope[]; label: string }
  | { kind: 'scimToken'; tokenId: string; tenantId: string; label: string }
  | { kind: 'ltiPlatform'; registrationId: string; tenantId: string; label: string };

/** Who made a change, as the audit log records it. */
export interface Actor {
  kind: ActorKind;
  /** The person's user id, the key's id, the token's, the registration's; null for Waymark itself. */
  id: string | null;
  /** A name a reader knows them by, as it is now: a person's name or e-mail, a key's name and prefix. */
  label: string;
  /** The request's address and User-Agent (null for a scheduled change). */
  ip: string | null;
  userAgent: string | null;
}

/** The id of the principal, whatever its kind. */
export function principalId(p: Principal): string {
  switch (p.kind) {
    case 'person':
      return p.userId;
    case 'apiKey':
      return p.keyId;
    case 'scimToken':
      return p.tokenId;
    case 'ltiPlatform':
      return p.registrationId;
  }
}

/** The actor of a request made by `principal` (`personLabel`: a person's name or e-mail address). */
export function actorOf(
  principal: Principal,
  personLabel: string,
  from: { ip?: string | null; userAgent?: string | null } = {},
): Actor {
  return {
    kind: principal.kind,
    id: principalId(principal),
    label: principal.kind === 'person' ? personLabel : principal.label,
    ip: from.ip ?? null,
    userAgent: from.userAgent?.slice(0, 500) ?? null,
  };
}

/** Waymark itself: a change a scheduled job makes (a seat ending with its billing cycle). */
export const systemActor: Actor = { kind: 'system', id: null, label: 'Waymark', ip: null, userAgent: null };
