/**
 * A downloaded file written where a command was told: standard output as it comes, or `--output`, written
 * beside its name (`<file>.partial`) and renamed at the end, so an interrupted download never leaves a
 * half-written file under the name asked for.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from './context';
import { CliError, ExitCode } from './errors';

export async function saveDownload(ctx: Context, res: Response, output: string | undefined): Promise<void> {
  if (!res.body) throw new CliError('The server sent no file.', ExitCode.unexpected);
  const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
  if (!output) {
    // the terminal or a pipe: the file as it is (a spreadsheet reads a CSV's BOM)
    await pipeline(body, passThroughTo(ctx.io.stdout));
    return;
  }
  const partial = `${output}.partial`;
  try {
    await pipeline(body, createWriteStream(partial), { signal: ctx.signal });
    await rename(partial, output);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  ctx.output.note(`Wrote ${output}.`);
}

/** Writes into a stream this command does not own (standard output): ends without closing it. */
function passThroughTo(target: Writable): Writable {
  return new Transform({
    transform(chunk, _enc, done) {
      if (target.write(chunk)) done();
      else target.once('drain', () => done());
    },
  });
}
