/**
 * Answers a file to download (a call declared with `download`): headers for an attachment, and the body
 * streamed from an async iterable of text chunks, pulled as the connection takes them (backpressure), so
 * a report of any length is written with a page of rows in memory at a time.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export function fileResponse(
  reply: FastifyReply,
  file: { filename: string; contentType: string; chunks: AsyncIterable<string> | Iterable<string> },
) {
  reply.header('content-type', file.contentType);
  reply.header(
    'content-disposition',
    `attachment; filename="${file.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
  );
  reply.header('cache-control', 'no-store');
  reply.header('x-content-type-options', 'nosniff');
  return { status: 200 as const, body: Readable.from(file.chunks, { objectMode: false }) };
}

/**
 * Reads rows page by page (keyset pagination: `page(after)` returns up to `size` rows after a cursor, in
 * order), yielding each row; only one page is held at a time.
 */
export async function* paged<R, K>(
  size: number,
  page: (after: K | null) => Promise<R[]>,
  cursorOf: (row: R) => K,
): AsyncGenerator<R> {
  let after: K | null = null;
  for (;;) {
    const rows = await page(after);
    for (const r of rows) yield r;
    if (rows.length < size) return;
    after = cursorOf(rows[rows.length - 1]!);
  }
}
