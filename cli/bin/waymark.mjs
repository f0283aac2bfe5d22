#!/usr/bin/env node
/**
 * The `waymark` executable. The CLI is TypeScript run through tsx's ESM loader, registered here with the
 * repository's tsconfig.json by absolute path, so the @shared/* aliases and the JSX settings apply from
 * any working directory.
 */
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const tsconfig = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
register({ tsconfig });

const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv);
