import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The web's unit tests reach the server's contracts as the back office does (vite.config.ts).
  resolve: { alias: { '@contracts': fileURLToPath(new URL('./src/contracts.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: two files at a time keeps PostgreSQL, PGlite and Chromium from starving each other.
    maxWorkers: 2,
  },
});
