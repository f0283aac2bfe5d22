import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { messages } from './scripts/i18n/vite-plugin.mjs';

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The portal: a single-page app served by the API server from dist/portal. */
export default defineConfig({
  root: r('./portal'),
  publicDir: r('./portal/public'),
  plugins: [react(), messages()],
  resolve: {
    alias: { '@shared': r('./shared'), '@widgets': r('./widgets'), '@portal': r('./portal') },
  },
  build: {
    outDir: r('./dist/portal'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        // a language's catalogue, fetched when the portal shows in it: messages.<language>-<hash>.js
        chunkFileNames: (chunk) => {
          const language = chunk.facadeModuleId?.match(/^\0wm-messages:all:([\w-]+)$/)?.[1];
          return language ? `assets/messages.${language}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': process.env.WAYMARK_API ?? 'http://127.0.0.1:8080',
      '/docs': process.env.WAYMARK_API ?? 'http://127.0.0.1:8080',
    },
  },
});
