/**
 * SCIM filters (RFC 7644 §3.4.2.2) as SQL: parsed by scim2-parse-filter, then each comparison on an attribute
 * the resource type can be searched by turned into a condition on its column (or its JSON). Identity
 * providers look people up with `userName eq`, `externalId eq` and groups with `displayName eq`; the other
 * operators (`ne co sw ew pr gt ge lt le`, `and`, `or`, `not`, value filters on `emails` and `members`) are
 * answered too. Text compares case-insensitively but `externalId` and `id` (caseExact). An attribute that
 * cannot be searched is 400 invalidFilter, naming it.
 */
import { and, not, or, type SQL, sql } from 'drizzle-orm';
import { type Filter, parse } from 'scim2-parse-filter';
import { escapeLike } from '../../db/like';
import { invalidFilter } from './errors';

/** How one attribute is compared: a column of text, a boolean, a time, or the values of a JSON list. */
export type Searchable =
  | { kind: 'text'; column: SQL; caseExact?: boolean }
  | { kind: 'uuid'; column: SQL }
  | { kind: 'boolean'; column: SQL }
  | { kind: 'time'; column: SQL }
  /** `emails.value` / `members.value`: some element of a list, `element` the element's value as text. */
  | { kind: 'some'; from: (match: (element: SQL) => SQL) => SQL };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function compare(
  a: Searchable & { kind: 'text' | 'uuid' | 'boolean' | 'time' },
  f: Filter & { attrPath: string },
): SQL {
  const col = a.column;
  if (f.op === 'pr') return sql`(${col} is not null${a.kind === 'text' ? sql` and ${col} <> ''` : sql``})`;
  const value = (f as { compValue: unknown }).compValue;
  if (value === null) {
    if (f.op === 'eq') return sql`${col} is null`;
    if (f.op === 'ne') return sql`${col} is not null`;
    throw invalidFilter(`${f.attrPath} ${f.op} null is not a comparison`);
  }
  switch (a.kind) {
    case 'boolean':
      if (typeof value !== 'boolean' || (f.op !== 'eq' && f.op !== 'ne'))
        throw invalidFilter(`${f.attrPath} takes eq or ne with true or false`);
      return f.op === 'eq' ? sql`${col} = ${value}` : sql`${col} <> ${value}`;
    case 'uuid':
      if (f.op !== 'eq' && f.op !== 'ne') throw invalidFilter(`${f.attrPath} takes eq or ne`);
      if (typeof value !== 'string' || !UUID.test(value)) return f.op === 'eq' ? sql`false` : sql`true`;
      return f.op === 'eq' ? sql`${col} = ${value}::uuid` : sql`${col} <> ${value}::uuid`;
    case 'time': {
      const when = typeof value === 'string' ? new Date(value) : null;
      if (!when || Number.isNaN(when.getTime()))
        throw invalidFilter(`${f.attrPath} compares with a dateTime`);
      const ops = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;
      const o = ops[f.op as keyof typeof ops];
      if (!o) throw invalidFilter(`${f.attrPath} takes eq, ne, gt, ge, lt or le`);
      return sql`${col} ${sql.raw(o)} ${when.toISOString()}::timestamptz`;
    }
    default: {
      if (typeof value !== 'string') throw invalidFilter(`${f.attrPath} compares with text`);
      const exact = a.caseExact === true;
      const l = exact ? col : sql`lower(${col})`;
      const v = exact ? value : value.toLowerCase();
      switch (f.op) {
        case 'eq':
          return sql`${l} = ${v}`;
        case 'ne':
          return sql`(${l} is null or ${l} <> ${v})`;
        case 'co':
          return sql`${l} like ${`%${escapeLike(v)}%`}`;
        case 'sw':
          return sql`${l} like ${`${escapeLike(v)}%`}`;
        case 'ew':
          return sql`${l} like ${`%${escapeLike(v)}`}`;
        case 'gt':
          return sql`${l} > ${v}`;
        case 'ge':
          return sql`${l} >= ${v}`;
        case 'lt':
          return sql`${l} < ${v}`;
        case 'le':
          return sql`${l} <= ${v}`;
        default:
          throw invalidFilter(`${f.op} is not an operator`);
      }
    }
  }
}

/** The attribute a filter names (case-insensitive), or invalidFilter. */
function attrOf(attrs: Record<string, Searchable>, name: string): Searchable {
  const key = Object.keys(attrs).find((k) => k.toLowerCase() === name.toLowerCase());
  if (!key) throw invalidFilter(`${name} cannot be searched: filter on ${Object.keys(attrs).join(', ')}`);
  return attrs[key]!;
}

function toSql(attrs: Record<string, Searchable>, f: Filter): SQL {
  switch (f.op) {
    case 'and':
      return and(...f.filters.map((g) => toSql(attrs, g)))!;
    case 'or':
      return or(...f.filters.map((g) => toSql(attrs, g)))!;
    case 'not':
      return not(toSql(attrs, f.filter));
    case '[]': {
      // emails[type eq "work" and value co "@example.com"]: one element meeting the whole filter
      const list = attrOf(attrs, `${f.attrPath}.value`);
      if (list.kind !== 'some') throw invalidFilter(`${f.attrPath} has no values to filter`);
      const inner = f.valFilter;
      return list.from((element) => elementSql(element, inner, f.attrPath));
    }
    default: {
      const a = attrOf(attrs, f.attrPath);
      if (a.kind === 'some') {
        return a.from((element) =>
          compare({ kind: 'text', column: sql`(${element} ->> 'value')` }, {
            ...f,
            attrPath: f.attrPath,
          } as never),
        );
      }
      return compare(a, f as never);
    }
  }
}

/** A value filter on one JSON element: its sub-attributes as text. */
function elementSql(element: SQL, f: Filter, where: string): SQL {
  switch (f.op) {
    case 'and':
      return and(...f.filters.map((g) => elementSql(element, g, where)))!;
    case 'or':
      return or(...f.filters.map((g) => elementSql(element, g, where)))!;
    case 'not':
      return not(elementSql(element, f.filter, where));
    case '[]':
      throw invalidFilter(`${where}: value filters do not nest`);
    default: {
      const sub = f.attrPath.toLowerCase();
      if (!['value', 'type', 'display', 'primary'].includes(sub))
        throw invalidFilter(`${where}.${f.attrPath} cannot be searched`);
      if (sub === 'primary')
        return compare({ kind: 'boolean', column: sql`((${element} ->> 'primary')::boolean)` }, f as never);
      return compare({ kind: 'text', column: sql`(${element} ->> ${sub})` }, f as never);
    }
  }
}

/** The SQL condition of a SCIM filter over the attributes a resource type can be searched by. */
export function filterSql(attrs: Record<string, Searchable>, text: string): SQL {
  if (text.length > 2000) throw invalidFilter('The filter is longer than 2000 characters');
  let ast: Filter;
  try {
    ast = parse(text);
  } catch {
    throw invalidFilter(`The filter ${JSON.stringify(text)} is not valid SCIM filter syntax`);
  }
  return toSql(attrs, ast);
}
