/** What every SCIM operation works with: the tenant's directory (its token), the seats, mail, addresses. */
import type { MailService } from '../../adapters/mail';
import type { Db } from '../../db/client';
import type { SeatPlans } from '../../tenant/accounting';
import type { Actor } from '../core/principal';

export interface ScimContext {
  db: Db;
  plans: SeatPlans;
  mail: MailService;
  publicUrl: string;
  /** The token's tenant: every read and write is limited to it. */
  tenantId: string;
  /** The SCIM token, as the activity log names it. */
  actor: Actor;
  /** `{PUBLIC_URL}/scim/v2`: where resources are (meta.location). */
  base: string;
}

/** The issuer under which a directory's users are outside identities (external_identities). */
export const SCIM_ISSUER = 'urn:waymark:scim';

/** A resource's version as its ETag (RFC 7644 §3.14): weak, from the row's version counter. */
export const etagOf = (version: number) => `W/"${version}"`;
