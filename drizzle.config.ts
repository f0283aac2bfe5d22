import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./server/db/schema.ts', './server/*/tables.ts', './server/integrations/*/tables.ts'],
  out: './server/db/migrations',
});
