/**
 * A SCIM resource as Waymark keeps it — a document of the attributes a schema defines, spelt canonically —
 * and the two ways it changes: normalising what a client sends (POST, PUT, a PATCH's values) and applying a
 * PATCH (RFC 7644 §3.5.2) as identity providers really send it: operation names in any case (Entra ID's
 * `Replace`), path-less `add`/`replace` with an object of attributes (Okta's `{"active": false}`), paths
 * with a value filter (`emails[type eq "work"].value`), booleans as the strings "True"/"False" (Entra ID).
 * Attribute names are case-insensitive (RFC 7643 §2.1); attributes no schema defines are ignored, and
 * read-only ones (`id`, `meta`, `groups`) never change.
 */
import { type Filter, parse } from 'scim2-parse-filter';
import { invalidFilter, invalidPath, invalidSyntax, invalidValue, mutability, noTarget } from './errors';
import { type Attr, findAttr } from './schemas';

export type Doc = Record<string, unknown>;

/** What a resource type's documents hold: its attributes, and the extension it may carry. */
export interface DocShape {
  /** The core schema's URN (a path may start with it). */
  urn: string;
  attrs: readonly Attr[];
  /** The enterprise extension (Users only). */
  extension?: { urn: string; attrs: readonly Attr[] };
}

/** RFC 7643 §3.1: every resource may carry the client's own id for it. */
const EXTERNAL_ID: Attr = { name: 'externalId', type: 'string', caseExact: true, description: '' };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function coerce(attr: Attr, value: unknown, where: string): unknown {
  if (value === null) return null;
  switch (attr.type) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      // Entra ID sends booleans as "True" / "False"
      if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
      throw invalidValue(`${where} must be true or false`);
    case 'integer':
    case 'decimal':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw invalidValue(`${where} must be a number`);
    case 'complex': {
      if (!isObject(value)) throw invalidValue(`${where} must be an object`);
      const out: Doc = {};
      for (const [k, v] of Object.entries(value)) {
        const sub = findAttr(attr.subAttributes ?? [], k);
        if (!sub || sub.mutability === 'readOnly') continue;
        const c = coerce(sub, v, `${where}.${sub.name}`);
        if (c !== null && c !== undefined) out[sub.name] = c;
      }
      return out;
    }
    default:
      if (typeof value === 'string') {
        if (value.length > 2048) throw invalidValue(`${where} is longer than 2048 characters`);
        if (value.includes('\u0000')) throw invalidValue(`${where} holds a NUL character`);
        return value;
      }
      // a number or boolean where text is expected: its text (directories send employee numbers as numbers)
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw invalidValue(`${where} must be a string`);
  }
}

/** A value of `attr` as sent (a multi-valued attribute's one element, or its list). */
function coerceValue(attr: Attr, value: unknown, where: string): unknown {
  if (!attr.multiValued || value === null) return coerce(attr, value, where);
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 1000) throw invalidValue(`${where} has more than 1000 values`);
  return list.map((v, i) => coerce({ ...attr, multiValued: false }, v, `${where}[${i}]`));
}

/** Sets `name` (canonical) in `doc`, or removes it when the value is null or empty. */
function put(doc: Doc, name: string, value: unknown) {
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) delete doc[name];
  else if (isObject(value) && Object.keys(value).length === 0) delete doc[name];
  else doc[name] = value;
}

/** Only one element of a multi-valued attribute may be primary: the one just set wins. */
function onePrimary(list: Doc[], winners: readonly Doc[]) {
  const winner = winners.find((v) => v.primary === true);
  if (!winner) return;
  for (const el of list) if (el !== winner && el.primary === true) el.primary = false;
}

/** Where an attribute lives: the core document, or the extension's object inside it. */
interface Resolved {
  attr: Attr;
  /** The object holding it (the document, or the extension's object, made on demand). */
  holder: (doc: Doc, create: boolean) => Doc | null;
}

function resolve(shape: DocShape, rawName: string, where: string): Resolved {
  let name = rawName;
  const lower = name.toLowerCase();
  const ext = shape.extension;
  if (ext && lower.startsWith(`${ext.urn.toLowerCase()}:`)) {
    name = name.slice(ext.urn.length + 1);
    const attr = findAttr(ext.attrs, name);
    if (!attr) throw invalidPath(`${where}: ${rawName} is not an attribute of ${ext.urn}`);
    return {
      attr,
      holder: (doc, create) => {
        const key = ext.urn;
        if (!isObject(doc[key])) {
          if (!create) return null;
          doc[key] = {};
        }
        return doc[key] as Doc;
      },
    };
  }
  if (lower.startsWith(`${shape.urn.toLowerCase()}:`)) name = name.slice(shape.urn.length + 1);
  if (name.toLowerCase() === 'externalid') return { attr: EXTERNAL_ID, holder: (doc) => doc };
  const attr = findAttr(shape.attrs, name);
  if (!attr) throw invalidPath(`${where}: ${rawName} is not an attribute`);
  return { attr, holder: (doc) => doc };
}

/** Normalises a whole resource as a client sends it (POST, PUT): canonical names, known attributes only. */
export function normalise(shape: DocShape, input: unknown): Doc {
  if (!isObject(input)) throw invalidSyntax('The request body must be a JSON object');
  const doc: Doc = {};
  for (const [key, value] of Object.entries(input)) {
    const lower = key.toLowerCase();
    if (lower === 'schemas' || lower === 'id' || lower === 'meta') continue;
    if (shape.extension && lower === shape.extension.urn.toLowerCase()) {
      if (value === null) continue;
      if (!isObject(value)) throw invalidValue(`${shape.extension.urn} must be an object`);
      for (const [k, v] of Object.entries(value)) setFromInput(shape, doc, `${shape.extension.urn}:${k}`, v);
      continue;
    }
    setFromInput(shape, doc, key, value);
  }
  return doc;
}

function setFromInput(shape: DocShape, doc: Doc, key: string, value: unknown) {
  let resolved: Resolved;
  try {
    resolved = resolve(shape, key, key);
  } catch {
    return; // an attribute no schema of ours defines (a directory's own extension): not kept
  }
  const { attr, holder } = resolved;
  if (attr.mutability === 'readOnly' || attr.mutability === 'writeOnly') return;
  put(holder(doc, true)!, attr.name, coerceValue(attr, value, attr.name));
  if (attr.multiValued && Array.isArray(holder(doc, false)?.[attr.name])) {
    const list = holder(doc, false)![attr.name] as Doc[];
    onePrimary(list, [...list].reverse());
  }
}

// ---- PATCH

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path?: string;
  value?: unknown;
}

/** The operations of a PatchOp message, checked: `op` in any case, a path where one is needed. */
export function readOperations(body: unknown, patchUrn: string): PatchOperation[] {
  if (!isObject(body)) throw invalidSyntax('The request body must be a JSON object');
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || !schemas.some((s) => String(s).toLowerCase() === patchUrn.toLowerCase()))
    throw invalidSyntax(`schemas must name ${patchUrn}`);
  const ops = body.Operations ?? body.operations;
  if (!Array.isArray(ops) || ops.length === 0) throw invalidSyntax('Operations must be a list of operations');
  if (ops.length > 1000) throw invalidValue('Operations holds more than 1000 operations');
  return ops.map((o, i) => {
    if (!isObject(o)) throw invalidSyntax(`Operations[${i}] must be an object`);
    const op = String(o.op ?? '').toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw invalidSyntax(`Operations[${i}].op must be add, replace or remove`);
    const path = o.path === undefined || o.path === null || o.path === '' ? undefined : o.path;
    if (path !== undefined && typeof path !== 'string')
      throw invalidPath(`Operations[${i}].path must be text`);
    if (op === 'remove' && path === undefined) throw noTarget(`Operations[${i}]: remove needs a path`);
    if (op !== 'remove' && !('value' in o)) throw invalidValue(`Operations[${i}]: ${op} needs a value`);
    return { op, path, value: o.value } as PatchOperation;
  });
}

/** A PATCH path: an attribute, maybe a value filter on it, maybe a sub-attribute. */
export interface ParsedPath {
  resolved: Resolved;
  filter?: Filter;
  sub?: Attr;
}

export function parsePath(shape: DocShape, path: string): ParsedPath {
  const bracket = path.indexOf('[');
  let attrPart = path;
  let filterText: string | undefined;
  let subName: string | undefined;
  if (bracket >= 0) {
    const close = path.lastIndexOf(']');
    if (close < bracket) throw invalidPath(`${path}: the value filter is not closed`);
    attrPart = path.slice(0, bracket);
    filterText = path.slice(bracket + 1, close);
    const rest = path.slice(close + 1);
    if (rest) {
      if (!rest.startsWith('.')) throw invalidPath(`${path}: expected .subAttribute after ]`);
      subName = rest.slice(1);
    }
  } else {
    // the last dot after any URN (URNs hold dots: …:2.0:User:manager.value)
    const colon = path.lastIndexOf(':');
    const dot = path.indexOf('.', colon + 1);
    if (dot >= 0) {
      attrPart = path.slice(0, dot);
      subName = path.slice(dot + 1);
    }
  }
  const resolved = resolve(shape, attrPart, path);
  let filter: Filter | undefined;
  if (filterText !== undefined) {
    if (!resolved.attr.multiValued) throw invalidPath(`${path}: ${resolved.attr.name} has a single value`);
    try {
      filter = parse(filterText);
    } catch {
      throw invalidFilter(`${path}: the filter ${filterText} is not valid`);
    }
  }
  let sub: Attr | undefined;
  if (subName !== undefined) {
    sub = findAttr(resolved.attr.subAttributes ?? [], subName);
    if (!sub) throw invalidPath(`${path}: ${subName} is not a sub-attribute of ${resolved.attr.name}`);
  }
  if (resolved.attr.mutability === 'readOnly' || sub?.mutability === 'readOnly')
    throw mutability(`${path} is read-only`);
  return { resolved, filter, sub };
}

const text = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

/** Whether an element of a multi-valued attribute matches a value filter (names and text case-insensitive). */
export function matches(el: Doc, f: Filter): boolean {
  switch (f.op) {
    case 'and':
      return f.filters.every((g) => matches(el, g));
    case 'or':
      return f.filters.some((g) => matches(el, g));
    case 'not':
      return !matches(el, f.filter);
    case '[]':
      return false;
    default: {
      const key = Object.keys(el).find((k) => k.toLowerCase() === f.attrPath.toLowerCase());
      const v = key === undefined ? undefined : el[key];
      if (f.op === 'pr') return v !== undefined && v !== null && v !== '';
      const a = text(v);
      const b = text(f.compValue);
      switch (f.op) {
        case 'eq':
          return a === b;
        case 'ne':
          return a !== b;
        case 'co':
          return typeof a === 'string' && typeof b === 'string' && a.includes(b);
        case 'sw':
          return typeof a === 'string' && typeof b === 'string' && a.startsWith(b);
        case 'ew':
          return typeof a === 'string' && typeof b === 'string' && a.endsWith(b);
        default: {
          if (a === undefined || a === null || b === null) return false;
          const [x, y] = [a as string | number, b as string | number];
          return f.op === 'gt' ? x > y : f.op === 'ge' ? x >= y : f.op === 'lt' ? x < y : x <= y;
        }
      }
    }
  }
}

/** The element a filter of equalities describes (`type eq "work"`), for a path that matched none. */
function elementOf(f: Filter): Doc | null {
  if (f.op === 'eq' && !f.attrPath.includes('.')) return { [f.attrPath]: f.compValue };
  if (f.op === 'and') {
    const parts = f.filters.map(elementOf);
    return parts.every(Boolean) ? Object.assign({}, ...parts) : null;
  }
  return null;
}

/** Applies one operation to a document (in place). */
export function applyOperation(shape: DocShape, doc: Doc, op: PatchOperation): void {
  if (op.path === undefined) {
    // path-less add/replace: the value is an object of attributes (RFC 7644 §3.5.2.1, .3)
    if (!isObject(op.value)) throw invalidValue(`${op.op} without a path needs an object of attributes`);
    for (const [key, value] of Object.entries(op.value)) {
      const lower = key.toLowerCase();
      if (lower === 'schemas' || lower === 'id' || lower === 'meta') continue;
      if (shape.extension && lower === shape.extension.urn.toLowerCase() && isObject(value)) {
        for (const [k, v] of Object.entries(value))
          applyOperation(shape, doc, { op: op.op, path: `${shape.extension.urn}:${k}`, value: v });
        continue;
      }
      let parsed: ParsedPath;
      try {
        parsed = parsePath(shape, key);
      } catch (err) {
        // read-only and unknown attributes in a whole-object value are left alone, as in a PUT
        if (
          (err as { scimType?: string }).scimType === 'invalidPath' ||
          (err as { scimType?: string }).scimType === 'mutability'
        )
          continue;
        throw err;
      }
      applyAt(doc, op.op, parsed, value, key);
    }
    return;
  }
  applyAt(doc, op.op, parsePath(shape, op.path), op.value, op.path);
}

function applyAt(doc: Doc, kind: PatchOperation['op'], p: ParsedPath, value: unknown, where: string) {
  const { attr, holder } = p.resolved;
  if (attr.mutability === 'writeOnly') return; // a password: not kept
  const target = holder(doc, kind !== 'remove');
  if (!target) return; // removing from an extension that is not there
  const name = attr.name;

  if (!attr.multiValued) {
    if (p.sub) {
      // name.givenName, manager.value
      const current = isObject(target[name]) ? (target[name] as Doc) : {};
      if (kind === 'remove') delete current[p.sub.name];
      else put(current, p.sub.name, coerce(p.sub, value, where));
      put(target, name, { ...current });
      return;
    }
    if (kind === 'remove') {
      delete target[name];
      return;
    }
    const v = coerce(attr, value, where);
    if (attr.type === 'complex' && isObject(v) && isObject(target[name])) {
      // a complex attribute's sub-attributes merge (RFC 7644 §3.5.2.1, §3.5.2.3)
      put(target, name, { ...(target[name] as Doc), ...(v as Doc) });
    } else put(target, name, v);
    return;
  }

  const list = Array.isArray(target[name]) ? ([...(target[name] as Doc[])] as Doc[]) : [];
  if (!p.filter) {
    if (p.sub) {
      // emails.value: every element's sub-attribute
      for (const el of list) {
        if (kind === 'remove') delete el[p.sub.name];
        else el[p.sub.name] = coerce(p.sub, value, where);
      }
      put(target, name, list);
      return;
    }
    if (kind === 'remove') {
      if (value === undefined || value === null) {
        delete target[name];
        return;
      }
      // Entra ID removes members by value: {"op":"Remove","path":"members","value":[{"value":"…"}]}
      const gone = (coerceValue(attr, value, where) as Doc[]).map((v) => text(v.value));
      put(
        target,
        name,
        list.filter((el) => !gone.includes(text(el.value))),
      );
      return;
    }
    const values = coerceValue(attr, value, where) as Doc[];
    if (kind === 'replace') {
      onePrimary(values, [...values].reverse());
      put(target, name, values);
      return;
    }
    // add: appended, an equal value not repeated (RFC 7644 §3.5.2.1)
    const key = (v: Doc) => JSON.stringify([text(v.value), text(v.type)]);
    const have = new Set(list.map(key));
    const added = values.filter((v) => !have.has(key(v)));
    const next = [...list, ...added];
    onePrimary(next, added);
    put(target, name, next);
    return;
  }

  const hits = list.filter((el) => matches(el, p.filter!));
  if (kind === 'remove') {
    if (p.sub) for (const el of hits) delete el[p.sub.name];
    put(target, name, p.sub ? list : list.filter((el) => !hits.includes(el)));
    return;
  }
  if (hits.length === 0) {
    // Entra ID adds and replaces `emails[type eq "work"].value` whether or not a work address exists yet
    const made = elementOf(p.filter);
    if (!made) throw noTarget(`${where} matches no value`);
    const element = coerce({ ...attr, multiValued: false }, made, where) as Doc;
    if (p.sub) element[p.sub.name] = coerce(p.sub, value, where);
    else Object.assign(element, coerce({ ...attr, multiValued: false }, value, where) as Doc);
    const next = [...list, element];
    onePrimary(next, [element]);
    put(target, name, next);
    return;
  }
  for (const el of hits) {
    if (p.sub) el[p.sub.name] = coerce(p.sub, value, where);
    else {
      const v = coerce({ ...attr, multiValued: false }, value, where) as Doc;
      if (kind === 'replace') {
        for (const k of Object.keys(el)) delete el[k];
      }
      Object.assign(el, v);
    }
  }
  onePrimary(list, hits);
  put(target, name, list);
}

/** Applies a PATCH's operations in order to a copy of the document; all or nothing. */
export function applyPatch(shape: DocShape, doc: Doc, ops: readonly PatchOperation[]): Doc {
  const copy = structuredClone(doc);
  for (const op of ops) applyOperation(shape, copy, op);
  return copy;
}
