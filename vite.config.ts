import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The back office: built into web/dist, served by the Fastify app under /backoffice/. */
export default defineConfig({
  root: 'web',
  base: '/backoffice/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // The page's CSP allows scripts from 'self' only: never inline a module preload polyfill.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
});
