import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.SYNTHORG_API_URL ?? 'http://127.0.0.1:8000';

/** The console: built into dist/web (served by the API process at /), or served by Vite against a running API. */
export default defineConfig({
  root,
  plugins: [react()],
  resolve: {
    alias: {
      '@app/client': fileURLToPath(new URL('../../libs/client/src/index.ts', import.meta.url)),
      // The task state machine, as the service's domain states it (pure data and rules, no framework).
      '@app/task-rules': fileURLToPath(new URL('../../libs/domain/src/tasks/task-transitions.ts', import.meta.url)),
      // The accepted ranges of a local model's launch parameters, as the API checks them.
      '@app/model-params': fileURLToPath(new URL('../../libs/domain/src/providers/local-params.ts', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or styles: the console's Content-Security-Policy allows only its own files.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 700,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: api, ws: true, changeOrigin: false },
      '/docs': { target: api },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // Typing through user-event in jsdom takes seconds on a busy two-core machine; these are not timing tests.
    testTimeout: 15_000,
  },
});
