/**
 * The SCIM schemas Waymark serves (RFC 7643 §4 and §8.7.1): the core User, the enterprise User extension and
 * the Group, as attribute tables. The same tables give `/Schemas` its documents and tell the server which
 * attributes exist, their canonical spelling (attribute names are case-insensitive), their types and which
 * are read-only — so what the server keeps and what it describes cannot disagree.
 */

export const USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_URN = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:Schema';
export const RESOURCE_TYPE_URN = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
export const SPC_URN = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';

export type AttrType = 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime' | 'integer' | 'decimal';

export interface Attr {
  name: string;
  type: AttrType;
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned?: 'always' | 'never' | 'default' | 'request';
  uniqueness?: 'none' | 'server' | 'global';
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: Attr[];
  description: string;
}

const s = (name: string, description: string, extra: Partial<Attr> = {}): Attr => ({
  name,
  type: 'string',
  description,
  ...extra,
});

/** value, display, type, primary: the sub-attributes of most multi-valued attributes (RFC 7643 §2.4). */
const multi = (name: string, description: string, types: string[], extra: Attr[] = []): Attr => ({
  name,
  type: 'complex',
  multiValued: true,
  description,
  subAttributes: [
    s('value', `The ${name} value.`),
    s('display', 'A human-readable name.'),
    s('type', 'A label indicating the function.', { canonicalValues: types }),
    { name: 'primary', type: 'boolean', description: 'The preferred value.' },
    ...extra,
  ],
});

export const USER_ATTRIBUTES: Attr[] = [
  s('userName', 'Unique identifier for the User, typically the sign-in name or e-mail address.', {
    required: true,
    uniqueness: 'server',
  }),
  {
    name: 'name',
    type: 'complex',
    description: "The components of the user's real name.",
    subAttributes: [
      s('formatted', 'The full name.'),
      s('familyName', 'The family name.'),
      s('givenName', 'The given name.'),
      s('middleName', 'The middle name(s).'),
      s('honorificPrefix', 'The honorific prefix(es).'),
      s('honorificSuffix', 'The honorific suffix(es).'),
    ],
  },
  s('displayName', 'The name of the User, suitable for display.'),
  s('nickName', 'The casual way to address the user.'),
  {
    ...s('profileUrl', "A URI of the user's online profile."),
    type: 'reference',
    referenceTypes: ['external'],
  },
  s('title', "The user's title, such as 'Vice President'."),
  s('userType', "The relationship between the organisation and the user, such as 'Employee'."),
  s('preferredLanguage', "The user's preferred written or spoken language (RFC 7231 Accept-Language)."),
  s('locale', "The user's default location (a language tag such as en-US)."),
  s('timezone', "The user's time zone (IANA, such as 'America/Los_Angeles')."),
  { name: 'active', type: 'boolean', description: "The user's administrative status: false frees the seat." },
  s('password', 'Not kept: Waymark signs people in through their identity provider.', {
    mutability: 'writeOnly',
    returned: 'never',
  }),
  multi('emails', 'E-mail addresses; the primary (or first) one is the Waymark account.', [
    'work',
    'home',
    'other',
  ]),
  multi('phoneNumbers', 'Phone numbers.', ['work', 'home', 'mobile', 'fax', 'pager', 'other']),
  multi('ims', 'Instant messaging addresses.', [
    'aim',
    'gtalk',
    'icq',
    'xmpp',
    'msn',
    'skype',
    'qq',
    'yahoo',
  ]),
  multi('photos', 'URLs of photos of the user.', ['photo', 'thumbnail']),
  {
    name: 'addresses',
    type: 'complex',
    multiValued: true,
    description: 'Physical mailing addresses.',
    subAttributes: [
      s('formatted', 'The full mailing address.'),
      s('streetAddress', 'The street address.'),
      s('locality', 'The city or locality.'),
      s('region', 'The state or region.'),
      s('postalCode', 'The zip or postal code.'),
      s('country', 'The country (ISO 3166-1 alpha-2).'),
      s('type', 'A label indicating the function.', { canonicalValues: ['work', 'home', 'other'] }),
      { name: 'primary', type: 'boolean', description: 'The preferred address.' },
    ],
  },
  {
    name: 'groups',
    type: 'complex',
    multiValued: true,
    mutability: 'readOnly',
    description: "The cohorts the user belongs to (change them through the Groups' members).",
    subAttributes: [
      s('value', 'The id of the Group.', { mutability: 'readOnly' }),
      {
        ...s('$ref', 'The URI of the Group.', { mutability: 'readOnly' }),
        type: 'reference',
        referenceTypes: ['Group'],
      },
      s('display', 'The name of the Group.', { mutability: 'readOnly' }),
      s('type', 'direct', { mutability: 'readOnly', canonicalValues: ['direct'] }),
    ],
  },
  multi('entitlements', 'Entitlements.', []),
  multi('roles', 'Roles.', []),
  multi('x509Certificates', 'X.509 certificates (DER, base64).', []),
];

export const ENTERPRISE_ATTRIBUTES: Attr[] = [
  s('employeeNumber', 'A string identifier, typically numeric or alphanumeric, assigned to a person.'),
  s('costCenter', 'The name of a cost center.'),
  s('organization', 'The name of an organisation.'),
  s('division', 'The name of a division.'),
  s('department', 'The name of a department.'),
  {
    name: 'manager',
    type: 'complex',
    description: "The user's manager.",
    subAttributes: [
      s('value', 'The id of the manager.'),
      { ...s('$ref', 'The URI of the manager.'), type: 'reference', referenceTypes: ['User'] },
      s('displayName', 'The name of the manager.', { mutability: 'readOnly' }),
    ],
  },
];

export const GROUP_ATTRIBUTES: Attr[] = [
  s('displayName', "The cohort's name, unique within the tenant.", { required: true, uniqueness: 'server' }),
  {
    name: 'members',
    type: 'complex',
    multiValued: true,
    description: 'The users in the cohort.',
    subAttributes: [
      s('value', 'The id of a User.', { mutability: 'immutable' }),
      {
        ...s('$ref', 'The URI of the User.', { mutability: 'immutable' }),
        type: 'reference',
        referenceTypes: ['User'],
      },
      s('display', 'The name of the User.', { mutability: 'readOnly' }),
      s('type', 'User', { mutability: 'immutable', canonicalValues: ['User'] }),
    ],
  },
];

/** An attribute by its name in any case. */
export function findAttr(attrs: readonly Attr[], name: string): Attr | undefined {
  const lower = name.toLowerCase();
  return attrs.find((a) => a.name.toLowerCase() === lower);
}

/** The `/Schemas` document of a schema (RFC 7643 §7), with the defaults spelt out. */
export function schemaDocument(id: string, name: string, description: string, attrs: Attr[], base: string) {
  const full = (a: Attr): Record<string, unknown> => ({
    name: a.name,
    type: a.type,
    multiValued: a.multiValued ?? false,
    description: a.description,
    required: a.required ?? false,
    ...(a.type === 'string' || a.type === 'reference' ? { caseExact: a.caseExact ?? false } : {}),
    ...(a.canonicalValues?.length ? { canonicalValues: a.canonicalValues } : {}),
    ...(a.referenceTypes ? { referenceTypes: a.referenceTypes } : {}),
    mutability: a.mutability ?? 'readWrite',
    returned: a.returned ?? 'default',
    ...(a.type === 'string' || a.type === 'reference' ? { uniqueness: a.uniqueness ?? 'none' } : {}),
    ...(a.subAttributes ? { subAttributes: a.subAttributes.map(full) } : {}),
  });
  return {
    schemas: [SCHEMA_URN],
    id,
    name,
    description,
    attributes: attrs.map(full),
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${id}` },
  };
}
