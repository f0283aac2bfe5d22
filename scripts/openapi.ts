/** Writes the OpenAPI document generated from the contract to docs/openapi.json. */
import { writeFileSync } from 'node:fs';
import { buildOpenApi } from '../server/http/openapi';

const doc = buildOpenApi('http://127.0.0.1:8080');
writeFileSync(new URL('../docs/openapi.json', import.meta.url), `${JSON.stringify(doc, null, 2)}\n`);
console.log(`✓ docs/openapi.json: ${Object.keys(doc.paths).length} paths`);
