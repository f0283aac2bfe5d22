/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside each text file of a built folder, so the server sends
 * compressed files without compressing on every request (@fastify/static's preCompressed option picks the
 * copy the browser accepts). Files under 1 KB, and copies that would not be smaller, are skipped.
 *
 *   node scripts/compress.mjs dist/portal dist/widgets
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(js|mjs|css|html|svg|json|vtt|txt)$/i;

export function compressFolder(dir) {
  let files = 0;
  let before = 0;
  let after = 0;
  const walk = (path) => {
    for (const name of readdirSync(path)) {
      const file = join(path, name);
      const st = statSync(file);
      if (st.isDirectory()) walk(file);
      else if (TEXT.test(name) && st.size >= 1024) {
        const body = readFileSync(file);
        const br = brotliCompressSync(body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        });
        const gz = gzipSync(body, { level: 9 });
        if (br.length < body.length) writeFileSync(`${file}.br`, br);
        if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
        files += 1;
        before += body.length;
        after += br.length;
      }
    }
  };
  walk(dir);
  return { files, before, after };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const dir of process.argv.slice(2)) {
    const { files, before, after } = compressFolder(dir);
    console.log(
      `  ${dir}: ${files} files, ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB brotli`,
    );
  }
}
