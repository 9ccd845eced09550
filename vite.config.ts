import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

/** The back office: built into web/dist, served by the Fastify app under /backoffice/. */
export default defineConfig({
  root: 'web',
  base: '/backoffice/',
  plugins: [react()],
  // The server's contracts (types, and the role → permission table): see src/contracts.ts.
  resolve: { alias: { '@contracts': fileURLToPath(new URL('./src/contracts.ts', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // The page's CSP allows scripts from 'self' only: never inline a module preload polyfill.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
});
