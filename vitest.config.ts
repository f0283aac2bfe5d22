import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { messages } from './scripts/i18n/vite-plugin.mjs';

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const alias = {
  '@shared': r('./shared'),
  '@server': r('./server'),
  '@widgets': r('./widgets'),
  '@portal': r('./portal'),
  '@cli': r('./cli'),
  '@extension': r('./extension'),
};

export default defineConfig({
  plugins: [messages()],
  resolve: { alias },
  test: {
    projects: [
      {
        plugins: [messages()],
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'node',
          // Ink draws only the final frame when it believes it runs under CI (is-in-ci reads CI); the
          // terminal views' tests follow the frames a person sees, so they run as on a terminal.
          env: { CI: 'false' },
          include: [
            'shared/**/*.test.ts',
            'cli/**/*.test.{ts,tsx}',
            'extension/**/*.test.ts',
            'server/**/*.unit.test.ts',
            'bench/**/*.unit.test.ts',
            'scripts/**/*.unit.test.ts',
          ],
        },
      },
      {
        plugins: [messages()],
        resolve: { alias },
        test: {
          name: 'dom',
          environment: 'happy-dom',
          include: ['portal/**/*.test.{ts,tsx}', 'widgets/**/*.test.{ts,tsx}'],
          setupFiles: ['./vitest.dom-setup.ts'],
        },
      },
      {
        plugins: [messages()],
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          exclude: ['server/**/*.unit.test.ts'],
          globalSetup: ['./server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          isolate: false,
        },
      },
    ],
  },
});
