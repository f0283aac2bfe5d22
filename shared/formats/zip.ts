/**
 * Opening a zip package (a QTI content package, a Canvas export) within bounds, so that a small file cannot
 * make the reader spend hundreds of megabytes (decision 032): at most MAX_ENTRIES files; expanded, at most
 * 100 times the package's own size (1 MB for a package under 10 KB) and never more than MAX_EXPANDED. The
 * sizes the package declares are checked first, and what it really holds is counted while it is inflated
 * (fflate's streaming Inflate, fed 4 KB at a time), so a package that lies about its sizes is stopped
 * within one step of its budget.
 *
 * Entries are found through the central directory (PKWARE APPNOTE 4.3.12, with the zip64 records of 4.3.14
 * and 4.5.3), so entries written with a data descriptor are read as well as the others.
 */
import { Inflate, inflateSync } from 'fflate';

/** The most files a package may hold (a 10,000-question QTI export with its images stays under it). */
const MAX_ENTRIES = 50_000;
/** The most bytes a package may expand to, whatever its size. */
const MAX_EXPANDED = 256 * 1024 * 1024;
/** How many times its own size a package may expand to. */
const MAX_RATIO = 100;
/** What a small package may always expand to. */
const SMALL_BUDGET = 1024 * 1024;
/** Compressed bytes inflated at a step: one step expands to at most about 4 MB (deflate's 1032:1). */
const STEP = 4 * 1024;
/**
 * An entry this small compressed is inflated at once into a buffer of the size it declares, and one more
 * byte: what does not fit is dropped, and the extra byte says the entry lied. (Streaming each of the
 * thousands of small files of a package cost ten times as long.)
 */
const SMALL_ENTRY = 64 * 1024;

export interface ZipLimits {
  entries: number;
  expanded: number;
  ratio: number;
}
export const ZIP_LIMITS: ZipLimits = { entries: MAX_ENTRIES, expanded: MAX_EXPANDED, ratio: MAX_RATIO };

/** What a package of `size` bytes may expand to. */
const expansionBudget = (size: number, limits: ZipLimits = ZIP_LIMITS) =>
  Math.min(limits.expanded, Math.max(SMALL_BUDGET, size * limits.ratio));

const megabytes = (n: number) => `${Number((n / 1024 / 1024).toFixed(1))} MB`;

export type ZipRead = { ok: true; entries: Record<string, Uint8Array> } | { ok: false; message: string };

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 0x1000000;
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 0x100000000;

interface Entry {
  name: string;
  method: number;
  compressed: number;
  size: number;
  offset: number;
}

/** The central directory's entries, or why they cannot be found. */
function directory(zip: Uint8Array, limits: ZipLimits): Entry[] | string {
  let end = zip.length - 22;
  while (end >= 0 && u32(zip, end) !== 0x06054b50) {
    if (zip.length - end > 65_557) return 'it is not a zip package (no end of central directory)';
    end--;
  }
  if (end < 0) return 'it is not a zip package (no end of central directory)';
  let count = u16(zip, end + 10);
  let at = u32(zip, end + 16);
  if ((count === 0xffff || at === 0xffffffff) && end >= 20 && u32(zip, end - 20) === 0x07064b50) {
    const z = u64(zip, end - 12);
    if (z + 56 > zip.length || u32(zip, z) !== 0x06064b50) return 'its zip64 directory is damaged';
    count = u64(zip, z + 32);
    at = u64(zip, z + 48);
  }
  if (count > limits.entries)
    return `it holds ${count.toLocaleString('en')} files; a package may hold at most ${limits.entries.toLocaleString('en')}`;
  const utf8 = new TextDecoder('utf-8');
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || u32(zip, at) !== 0x02014b50) return 'its central directory is damaged';
    const flags = u16(zip, at + 8);
    const nameLength = u16(zip, at + 28);
    const extraLength = u16(zip, at + 30);
    const commentLength = u16(zip, at + 32);
    const nameBytes = zip.subarray(at + 46, at + 46 + nameLength);
    const name = flags & 0x800 ? utf8.decode(nameBytes) : String.fromCharCode(...nameBytes);
    let compressed = u32(zip, at + 20);
    let size = u32(zip, at + 24);
    let offset = u32(zip, at + 42);
    // zip64: the values that did not fit are in the extra field 0x0001, in this order
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength; ) {
      const id = u16(zip, x);
      const length = u16(zip, x + 2);
      if (id === 0x0001) {
        let v = x + 4;
        if (size === 0xffffffff) {
          size = u64(zip, v);
          v += 8;
        }
        if (compressed === 0xffffffff) {
          compressed = u64(zip, v);
          v += 8;
        }
        if (offset === 0xffffffff) offset = u64(zip, v);
      }
      x += 4 + length;
    }
    entries.push({ name, method: u16(zip, at + 10), compressed, size, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The files of a zip package (directories left out), or why it cannot be opened: damaged, more files than
 * MAX_ENTRIES, or more bytes expanded than its budget (expansionBudget).
 */
export function readZip(zip: Uint8Array, limits: ZipLimits = ZIP_LIMITS): ZipRead {
  const found = directory(zip, limits);
  if (typeof found === 'string') return { ok: false, message: found };
  const budget = expansionBudget(zip.length, limits);
  const tooLarge = {
    ok: false as const,
    message: `it expands to more than ${megabytes(budget)} (a package may expand to ${limits.ratio} times its own size, at most ${megabytes(limits.expanded)})`,
  };
  const declared = found.reduce((sum, e) => sum + e.size, 0);
  if (declared > budget) return tooLarge;
  const entries: Record<string, Uint8Array> = {};
  let expanded = 0;
  for (const e of found) {
    if (e.name.endsWith('/')) continue;
    const local = e.offset;
    if (local + 30 > zip.length || u32(zip, local) !== 0x04034b50)
      return { ok: false, message: `the entry ${e.name} is damaged` };
    const start = local + 30 + u16(zip, local + 26) + u16(zip, local + 28);
    if (start + e.compressed > zip.length) return { ok: false, message: `the entry ${e.name} is cut short` };
    const data = zip.subarray(start, start + e.compressed);
    if (!data.length) {
      entries[e.name] = new Uint8Array(0);
      continue;
    }
    if (e.method === 0) {
      expanded += data.length;
      if (expanded > budget) return tooLarge;
      entries[e.name] = data.slice();
      continue;
    }
    if (e.method !== 8)
      return {
        ok: false,
        message: `the entry ${e.name} uses a compression zip readers rarely know (${e.method})`,
      };
    const lied = { ok: false as const, message: `the entry ${e.name} is larger than the package says` };
    if (data.length <= SMALL_ENTRY) {
      let out: Uint8Array;
      try {
        out = inflateSync(data, { out: new Uint8Array(e.size + 1) });
      } catch (err) {
        // a stored block that does not fit what the entry declared fails its copy
        if (err instanceof RangeError) return lied;
        return { ok: false, message: `the entry ${e.name} cannot be inflated (${(err as Error).message})` };
      }
      if (out.length > e.size) return lied;
      expanded += out.length;
      entries[e.name] = out;
      continue;
    }
    const chunks: Uint8Array[] = [];
    let length = 0;
    let over = false;
    const inflate = new Inflate((chunk) => {
      length += chunk.length;
      expanded += chunk.length;
      if (length > e.size || expanded > budget) over = true;
      else if (chunk.length) chunks.push(chunk);
    });
    try {
      // a step's worst output (1032 times its input) stays within what the entry and the budget still
      // allow, or within about 4 MB past them: small steps near a limit, larger ones far from it
      for (let at = 0; at < data.length && !over; ) {
        const room = Math.min(e.size - length, budget - expanded);
        const step = Math.max(STEP, Math.floor(room / 1032));
        inflate.push(data.subarray(at, at + step), at + step >= data.length);
        at += step;
      }
    } catch (err) {
      return { ok: false, message: `the entry ${e.name} cannot be inflated (${(err as Error).message})` };
    }
    if (over) return length > e.size && expanded <= budget ? lied : tooLarge;
    const out = new Uint8Array(length);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    entries[e.name] = out;
  }
  return { ok: true, entries };
}
