import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { mantineCss } from './mantine-css.ts';
import { precompress } from './precompress.ts';
import { prerender } from './prerender.ts';

// The API server listens on 3000 in development (`npm run dev`); the SPA proxies to it so
// cookies, relative URLs and the STOMP socket behave as they do in production (same origin).
const apiServer = 'http://localhost:3000';

export default defineConfig({
  // The prerender before the precompression: its pages are compressed too.
  plugins: [react(), mantineCss(), prerender(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // Read by the prerender (prerender.ts), which then deletes it.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': apiServer,
      '/auth': apiServer,
      '/wss': { target: apiServer, ws: true },
    },
  },
});
