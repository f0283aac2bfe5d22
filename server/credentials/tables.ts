/**
 * Credentials: the signed Open Badges 3.0 credential of each award, the revocations (kept apart from the
 * award, so a revocation outlives the learner's data), the signed Bitstring Status Lists and the issuer's
 * public keys (every key that ever signed stays in the DID document until withdrawn).
 */
import {
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { testLinks } from '../assessments/tables';
import { users } from '../db/schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Hands out status list positions: list = n / LIST_SIZE, index = a permutation of n mod LIST_SIZE. */
export const credentialStatusSeq = pgSequence('credential_status_seq', { startWith: 0, minValue: 0 });

export const credentials = pgTable(
  'credentials',
  {
    /** The award id: the link id of the test that earned it (as in /feather/{id}). */
    awardId: text('award_id').primaryKey(),
    testLinkId: uuid('test_link_id')
      .notNull()
      .references(() => testLinks.id, { onDelete: 'cascade' }),
    statusList: integer('status_list').notNull(),
    statusIndex: integer('status_index').notNull(),
    /** The signed OpenBadgeCredential, exactly as served. */
    document: jsonb('document').$type<Record<string, unknown>>().notNull(),
    /** The verification method that signed it. */
    keyId: text('key_id').notNull(),
    issuedAt: ts('issued_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credentials_test_link_key').on(t.testLinkId),
    uniqueIndex('credentials_status_key').on(t.statusList, t.statusIndex),
  ],
);

export const credentialRevocations = pgTable(
  'credential_revocations',
  {
    awardId: text('award_id').primaryKey(),
    statusList: integer('status_list').notNull(),
    statusIndex: integer('status_index').notNull(),
    reason: text('reason').notNull(),
    /** MENTOR (the test was theirs) or PLATFORM (platform staff). */
    revokedAs: text('revoked_as', { enum: ['MENTOR', 'PLATFORM'] }).notNull(),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: ts('revoked_at').notNull().defaultNow(),
  },
  (t) => [index('credential_revocations_list_idx').on(t.statusList)],
);

export const credentialStatusLists = pgTable('credential_status_lists', {
  list: integer('list').primaryKey(),
  /** The signed BitstringStatusListCredential, exactly as served. */
  document: jsonb('document').$type<Record<string, unknown>>().notNull(),
  /** Revocations folded in (a newer list never loses one). */
  revokedCount: integer('revoked_count').notNull().default(0),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const credentialKeys = pgTable(
  'credential_keys',
  {
    /** The verification method id: `{did}#{publicKeyMultibase}`. */
    id: text('id').primaryKey(),
    publicKeyMultibase: text('public_key_multibase').notNull(),
    firstUsedAt: ts('first_used_at').notNull().defaultNow(),
  },
  (t) => [index('credential_keys_first_used_idx').on(t.firstUsedAt)],
);
