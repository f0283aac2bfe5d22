/**
 * The file storage adapter (award images, question images): one interface, two implementations.
 *
 * - local (default): files under DATA_DIR/files. Uploads go to the API itself through short-lived signed
 *   URLs (PUT /api/storage/upload?key&ct&max[&size]&expires&sig, HMAC-SHA256 with a secret from the
 *   settings over every parameter exactly as the address spells it, so any change to the address — a
 *   raised limit, the same number written another way, an added or repeated parameter — is refused); the
 *   type is checked against the file's magic bytes, the size against the signed limit and, when the
 *   uploader declared it, the signed exact size; files are served read-only at /files/{key}.
 * - S3-compatible (S3_BUCKET set): presigned PUT URLs (AWS Signature Version 4, written with node:crypto —
 *   no SDK) straight to the bucket, with the content type and the exact size (Content-Length) signed in,
 *   so the bucket refuses any other type or size; files are read from S3_PUBLIC_URL (a CDN) or the bucket.
 *   Presence, size and type are checked again after the upload with signed HEAD and ranged GET requests.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { IMAGE_MIME_TYPES, type ImageMimeType, imageKind } from '@shared/formats/image';

/** The MIME types of files the storage takes: jpeg, png and webp images. */
export const STORED_MIME_TYPES: readonly ImageType[] = Object.values(IMAGE_MIME_TYPES);
export type ImageType = ImageMimeType;
/** The largest upload any signed URL may allow. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  /** Headers the uploader must send (the content type is part of the signature). */
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface StoredObject {
  size: number;
  contentType: string | null;
}

export interface UploadOptions {
  contentType: string;
  /** The most the file may hold. */
  maxBytes: number;
  /** The file's exact size, when the uploader declared it (at most maxBytes): signed in, so no other size is taken. */
  size?: number;
  expiresInSeconds?: number;
}

export interface StorageAdapter {
  readonly kind: 'local' | 's3';
  /** A short-lived address to PUT one file of this type, of at most this size (or exactly `size`), to `key`. */
  presignUpload(key: string, opts: UploadOptions): Promise<PresignedUpload>;
  /** Where anyone reads the file. */
  publicUrl(key: string): string;
  /** Size and type of a stored file, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  /** The first bytes of a stored file (to check its magic bytes), or null when there is none. */
  readPrefix(key: string, bytes: number): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
}

/** Keys are relative paths of safe characters: `certificates/{linkId}.jpg`. */
const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

export function isValidKey(key: string): boolean {
  return key.length <= 300 && KEY_PATTERN.test(key) && !key.split('/').some((p) => p === '..' || p === '.');
}

function assertKey(key: string) {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${key}`);
}

/** What the first bytes say the file is, as a MIME type (the signatures: shared/formats/image.ts). */
export function sniffImageType(head: Uint8Array): ImageType | null {
  const kind = imageKind(head);
  return kind && IMAGE_MIME_TYPES[kind];
}

export function contentTypeOfKey(key: string): ImageType | null {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'jpg' || ext === 'jpeg') return 'image/jpeg';
  if (ext === 'png') return 'image/png';
  if (ext === 'webp') return 'image/webp';
  return null;
}

// ---------------------------------------------------------------- local

export interface UploadGrant {
  key: string;
  contentType: ImageType;
  maxBytes: number;
  /** The exact size the address was signed for, when the uploader declared one. */
  size: number | null;
  /** Unix seconds. */
  expires: number;
}

/** The parameters of a local upload address; any other, or any given twice, makes the address invalid. */
const UPLOAD_PARAMS = ['key', 'ct', 'max', 'size', 'expires', 'sig'] as const;

export type UploadCheck =
  | { ok: true; grant: UploadGrant }
  | { ok: false; reason: 'signature' | 'expired' | 'key'; message: string };

export class LocalStorage implements StorageAdapter {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(
    private readonly opts: {
      /** DATA_DIR/files */
      dir: string;
      /** The server's public origin (PUBLIC_URL). */
      publicUrl: string;
      secret: string;
      defaultTtlSeconds: number;
      now?: () => number;
    },
  ) {
    this.root = resolve(opts.dir);
  }

  private now() {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /** The signature over the parameters' text exactly as the address carries it (no line breaks in any). */
  private sign(p: { key: string; ct: string; max: string; size?: string; expires: string }): string {
    return createHmac('sha256', this.opts.secret)
      .update(
        ['PUT', p.key, p.ct, p.max, p.expires, ...(p.size === undefined ? [] : ['size', p.size])].join('\n'),
      )
      .digest('hex');
  }

  async presignUpload(key: string, opts: UploadOptions): Promise<PresignedUpload> {
    assertKey(key);
    if (!(STORED_MIME_TYPES as readonly string[]).includes(opts.contentType))
      throw new Error(`Unsupported upload type ${opts.contentType}`);
    const max = Math.min(Math.floor(opts.maxBytes), MAX_UPLOAD_BYTES);
    if (opts.size !== undefined && !(Number.isInteger(opts.size) && opts.size > 0 && opts.size <= max))
      throw new Error(`Upload size ${opts.size} is not within 1..${max}`);
    const expires = Math.floor(this.now() / 1000) + (opts.expiresInSeconds ?? this.opts.defaultTtlSeconds);
    const params = {
      key,
      ct: opts.contentType,
      max: String(max),
      ...(opts.size === undefined ? {} : { size: String(opts.size) }),
      expires: String(expires),
    };
    const q = new URLSearchParams({ ...params, sig: this.sign(params) });
    return {
      url: `${this.opts.publicUrl}/api/storage/upload?${q.toString()}`,
      method: 'PUT',
      headers: { 'content-type': opts.contentType },
      expiresAt: new Date(expires * 1000),
    };
  }

  /**
   * Checks a signed upload address from its query as the request carried it (text, not parsed numbers):
   * only the known parameters, each once; the signature over their exact text; then the expiry.
   */
  verifyUpload(query: Record<string, unknown>): UploadCheck {
    const invalid = { ok: false, reason: 'signature', message: 'This upload address is not valid.' } as const;
    const names = Object.keys(query);
    if (names.some((n) => !(UPLOAD_PARAMS as readonly string[]).includes(n))) return invalid;
    if (Object.values(query).some((v) => typeof v !== 'string')) return invalid;
    const q = query as Partial<Record<(typeof UPLOAD_PARAMS)[number], string>>;
    if (!q.key || !q.ct || !q.max || !q.expires || !q.sig) return invalid;
    if (!isValidKey(q.key)) return { ok: false, reason: 'key', message: 'This upload address is not valid.' };
    const expected = Buffer.from(
      this.sign({ key: q.key, ct: q.ct, max: q.max, size: q.size, expires: q.expires }),
      'hex',
    );
    const given = Buffer.from(q.sig, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
    const expires = Number(q.expires);
    if (Math.floor(this.now() / 1000) > expires) {
      return { ok: false, reason: 'expired', message: 'This upload address has expired. Ask for a new one.' };
    }
    return {
      ok: true,
      grant: {
        key: q.key,
        contentType: q.ct as ImageType,
        maxBytes: Number(q.max),
        size: q.size === undefined ? null : Number(q.size),
        expires,
      },
    };
  }

  /** The file's path on disk, never outside the root. */
  pathOf(key: string): string {
    assertKey(key);
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error(`Invalid storage key: ${key}`);
    return p;
  }

  /** Writes a whole file atomically (a reader never sees half a file). */
  async write(key: string, body: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const tmp = `${target}.${randomBytes(6).toString('hex')}.part`;
    await writeFile(tmp, body);
    await rename(tmp, target);
  }

  publicUrl(key: string): string {
    return `${this.opts.publicUrl}/files/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const s = await stat(this.pathOf(key));
      if (!s.isFile()) return null;
      return { size: s.size, contentType: contentTypeOfKey(key) };
    } catch {
      return null;
    }
  }

  async readPrefix(key: string, bytes: number): Promise<Buffer | null> {
    let fh: Awaited<ReturnType<typeof open>> | undefined;
    try {
      fh = await open(this.pathOf(key), 'r');
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await fh.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } catch {
      return null;
    } finally {
      await fh?.close();
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

// ---------------------------------------------------------------- S3 (AWS Signature Version 4)

export interface S3Settings {
  /** e.g. https://s3.eu-west-1.amazonaws.com, http://127.0.0.1:9000 (MinIO), https://<account>.r2.cloudflarestorage.com */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where files are read: a CDN in front of the bucket; the bucket's own address when unset. */
  publicUrl?: string | null;
  /** Bucket in the path (MinIO, most S3-compatible stores) or in the host name (AWS). */
  pathStyle?: boolean;
}

/** The bucket's base address: the endpoint with the bucket in the path, or in the host name (AWS). */
export function bucketBase(s3: S3Settings): string {
  const endpoint = new URL(s3.endpoint);
  const base = endpoint.pathname.replace(/\/$/, '');
  if (s3.pathStyle ?? !endpoint.hostname.endsWith('amazonaws.com')) {
    return `${endpoint.origin}${base}/${s3.bucket}`;
  }
  return `${endpoint.protocol}//${s3.bucket}.${endpoint.host}${base}`;
}

/** RFC 3986 encoding as SigV4 wants it: everything but A-Z a-z 0-9 - . _ ~ ('/' kept in paths). */
export function awsEncode(value: string, keepSlash = false): string {
  const encoded = encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** 20130524T000000Z */
export function amzDate(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export interface PresignRequest {
  method: 'GET' | 'PUT' | 'HEAD' | 'DELETE';
  /** Full URL of the object without query, e.g. https://examplebucket.s3.amazonaws.com/test.txt */
  url: string;
  region: string;
  service?: string;
  accessKeyId: string;
  secretAccessKey: string;
  expiresInSeconds: number;
  now: Date;
  /** Headers the request must carry and that are signed (host is always signed). */
  headers?: Record<string, string>;
}

/**
 * A presigned URL (query-string authentication) as the S3 documentation "Authenticating Requests: Using
 * Query Parameters (AWS Signature Version 4)" describes: canonical request with UNSIGNED-PAYLOAD, string to
 * sign, signing key derived from the date, region and service.
 */
export function presignUrl(req: PresignRequest): string {
  const url = new URL(req.url);
  const service = req.service ?? 's3';
  const datetime = amzDate(req.now);
  const date = datetime.slice(0, 8);
  const scope = `${date}/${req.region}/${service}/aws4_request`;
  const headers: Record<string, string> = { host: url.host };
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v.trim();
  const headerNames = Object.keys(headers).sort();
  const signedHeaders = headerNames.join(';');
  const query: [string, string][] = [
    ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
    ['X-Amz-Credential', `${req.accessKeyId}/${scope}`],
    ['X-Amz-Date', datetime],
    ['X-Amz-Expires', String(req.expiresInSeconds)],
    ['X-Amz-SignedHeaders', signedHeaders],
  ];
  const canonicalQuery = query
    .map(([k, v]) => [awsEncode(k), awsEncode(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  // the path as it will be sent: each segment decoded once, then encoded the AWS way
  const canonicalUri = url.pathname
    .split('/')
    .map((seg) => awsEncode(decodeURIComponent(seg)))
    .join('/');
  const canonicalRequest = [
    req.method,
    canonicalUri || '/',
    canonicalQuery,
    `${headerNames.map((h) => `${h}:${headers[h]}`).join('\n')}\n`,
    signedHeaders,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', datetime, scope, sha256Hex(canonicalRequest)].join('\n');
  const kDate = hmac(`AWS4${req.secretAccessKey}`, date);
  const kRegion = hmac(kDate, req.region);
  const kService = hmac(kRegion, service);
  const kSigning = hmac(kService, 'aws4_request');
  const signature = createHmac('sha256', kSigning).update(stringToSign, 'utf8').digest('hex');
  return `${url.origin}${canonicalUri || '/'}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}

export class S3Storage implements StorageAdapter {
  readonly kind = 's3' as const;

  constructor(
    private readonly s3: S3Settings,
    private readonly opts: {
      defaultTtlSeconds: number;
      fetch?: typeof fetch;
      now?: () => Date;
    },
  ) {}

  private get fetch() {
    return this.opts.fetch ?? fetch;
  }

  /** The object's address in the bucket. */
  objectUrl(key: string): string {
    assertKey(key);
    const path = key
      .split('/')
      .map((s) => awsEncode(s))
      .join('/');
    return `${bucketBase(this.s3)}/${path}`;
  }

  private sign(
    method: PresignRequest['method'],
    key: string,
    expiresInSeconds: number,
    headers?: Record<string, string>,
  ) {
    return presignUrl({
      method,
      url: this.objectUrl(key),
      region: this.s3.region,
      accessKeyId: this.s3.accessKeyId,
      secretAccessKey: this.s3.secretAccessKey,
      expiresInSeconds,
      now: this.opts.now ? this.opts.now() : new Date(),
      headers,
    });
  }

  /**
   * A presigned PUT with the content type and the exact size signed in (the bucket answers 403 to any
   * other Content-Type or Content-Length). A presigned PUT cannot carry a size limit, only a size, so
   * the size is required.
   */
  async presignUpload(key: string, opts: UploadOptions): Promise<PresignedUpload> {
    if (
      opts.size === undefined ||
      !(Number.isInteger(opts.size) && opts.size > 0 && opts.size <= opts.maxBytes)
    )
      throw new Error(`An S3 upload needs its exact size (1..${opts.maxBytes}), not ${opts.size}`);
    const ttl = opts.expiresInSeconds ?? this.opts.defaultTtlSeconds;
    const now = this.opts.now ? this.opts.now() : new Date();
    const headers = { 'content-type': opts.contentType };
    return {
      url: this.sign('PUT', key, ttl, { ...headers, 'content-length': String(opts.size) }),
      method: 'PUT',
      headers,
      expiresAt: new Date(now.getTime() + ttl * 1000),
    };
  }

  publicUrl(key: string): string {
    if (this.s3.publicUrl) {
      return `${this.s3.publicUrl.replace(/\/$/, '')}/${key.split('/').map(encodeURIComponent).join('/')}`;
    }
    return this.objectUrl(key);
  }

  async stat(key: string): Promise<StoredObject | null> {
    const res = await this.fetch(this.sign('HEAD', key, 60), { method: 'HEAD' });
    if (res.status === 404 || res.status === 403) return null;
    if (!res.ok) throw new Error(`Storage HEAD ${key} failed with ${res.status}`);
    return {
      size: Number(res.headers.get('content-length') ?? 0),
      contentType: res.headers.get('content-type'),
    };
  }

  async readPrefix(key: string, bytes: number): Promise<Buffer | null> {
    const res = await this.fetch(this.sign('GET', key, 60), {
      headers: { range: `bytes=0-${bytes - 1}` },
    });
    if (res.status === 404 || res.status === 403) return null;
    if (!res.ok) throw new Error(`Storage GET ${key} failed with ${res.status}`);
    return Buffer.from(await res.arrayBuffer()).subarray(0, bytes);
  }

  async remove(key: string): Promise<void> {
    const res = await this.fetch(this.sign('DELETE', key, 60), { method: 'DELETE' });
    if (!res.ok && res.status !== 404) throw new Error(`Storage DELETE ${key} failed with ${res.status}`);
  }
}

// ---------------------------------------------------------------- choosing one

export interface StorageConfig {
  /** DATA_DIR/files */
  dir: string;
  /** Signs local upload URLs. */
  secret: string;
  uploadTtlSeconds: number;
  s3: S3Settings | null;
}

export function createStorage(storage: StorageConfig, publicUrl: string): StorageAdapter {
  if (storage.s3) return new S3Storage(storage.s3, { defaultTtlSeconds: storage.uploadTtlSeconds });
  return new LocalStorage({
    dir: storage.dir,
    publicUrl,
    secret: storage.secret,
    defaultTtlSeconds: storage.uploadTtlSeconds,
  });
}
