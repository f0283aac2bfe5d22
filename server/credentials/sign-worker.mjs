// The signing thread's entry: loads sign-worker.ts through tsx, in the server (run with `--import tsx`) and
// in tests alike.
import { tsImport } from 'tsx/esm/api';

await tsImport('./sign-worker.ts', import.meta.url);
