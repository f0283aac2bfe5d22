import { readFileSync } from 'node:fs';
import { readQti } from '@shared/formats/qti';
for (const f of process.argv.slice(2)) {
const r = readQti(readFileSync(f, 'utf8'));
console.log(f, JSON.stringify({ ...r, files: [...r.files.keys()] }, null, 0).replace(/\{"line"/g, '\n{"line"'));
}
