/**
 * `waymark … | head`: when the reader stops reading, writing to standard output fails with EPIPE. Like a
 * Unix tool stopped by SIGPIPE, the command then ends quietly — no stack trace — and, since the reader chose
 * to stop, with the exit code of success so `set -o pipefail` scripts are not failed by `head`.
 */
import { ExitCode } from './errors';

export function endQuietlyOnBrokenPipe(
  stream: NodeJS.WritableStream,
  end: () => void = () => process.exit(ExitCode.ok),
): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') return end();
    throw err;
  });
}
