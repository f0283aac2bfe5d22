/**
 * SCIM's own error shape (RFC 7644 §3.12): `{ schemas: [Error], status: "400", scimType?, detail }`, sent as
 * application/scim+json. A SCIM request never gets the JSON API's envelope, and an error never names another
 * tenant's records: a resource of another tenant is as good as missing (404).
 */
export const ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 §3.12, table 9. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimType,
    /** Response headers that go with it (Retry-After of a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  body() {
    return {
      schemas: [ERROR_URN],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.message,
    };
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');
export const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');
export const noTarget = (detail: string) => new ScimError(400, detail, 'noTarget');
export const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');
export const uniqueness = (detail: string) => new ScimError(409, detail, 'uniqueness');
export const mutability = (detail: string) => new ScimError(400, detail, 'mutability');
export const scimNotFound = (what: 'User' | 'Group', id: string) =>
  new ScimError(404, `${what} ${id} not found`);
