import { resolve } from 'node:path';
import { matchBoardPath } from '@upnext/contract/routes';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { mantineCss } from './mantine-css.ts';
import { type ModuleGraph, staticClosure } from './static-closure.ts';

// The API server listens on 3000 in development (`npm run dev`); the SPA proxies to it so
// cookies, relative URLs and the STOMP socket behave as they do in production (same origin).
const apiServer = 'http://localhost:3000';

/**
 * The wall-screen boards have an entry of their own (display.html, `src/display.tsx`): the
 * development server sends it for their paths, as the server does in production (`spa.ts`).
 */
function boardPages(): Plugin {
  return {
    name: 'upnext-board-pages',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const pathname = (request.url ?? '/').split('?', 1)[0] ?? '/';
        if (matchBoardPath(pathname)) {
          request.url = `/display.html${(request.url ?? '').slice(pathname.length)}`;
        }
        next();
      });
    },
  };
}

const ENTRIES = {
  app: resolve(import.meta.dirname, 'src/main.tsx'),
  board: resolve(import.meta.dirname, 'src/display.tsx'),
};

let closures: { graph: ModuleGraph; app: Set<string>; board: Set<string> } | undefined;

/**
 * The app's start in one chunk (`app`), as before the boards had an entry; what the boards'
 * entry shares with it in another (`shared`: React, Mantine's provider, the query cache), so a
 * board never loads the app's start. What only the boards' entry loads is chunked as usual.
 */
function initialChunk(id: string, graph: ModuleGraph, group: 'app' | 'shared'): string | null {
  if (closures?.graph !== graph) {
    closures = {
      graph,
      app: staticClosure(ENTRIES.app, graph),
      board: staticClosure(ENTRIES.board, graph),
    };
  }
  if (!closures.app.has(id)) return null;
  return (closures.board.has(id) ? 'shared' : 'app') === group ? group : null;
}

export default defineConfig({
  // The public pages' light start is a second build (`vite.public.config.ts`), which then
  // prerenders them and precompresses both.
  plugins: [react(), mantineCss(), boardPages()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // Every browser the app supports preloads modules itself; shared by the two entries, the
    // polyfill would be one more script on each page.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The app, and the wall-screen boards' light entry (src/display.tsx).
      input: { index: 'index.html', display: 'display.html' },
      output: {
        codeSplitting: {
          // The shared part first: the app's group would otherwise take it in with its imports.
          groups: [
            {
              name: (id, graph) => initialChunk(id, graph, 'shared'),
              debugName: 'shared',
              tags: ['$initial'],
              priority: 2,
            },
            {
              name: (id, graph) => initialChunk(id, graph, 'app'),
              debugName: 'app',
              tags: ['$initial'],
              priority: 1,
            },
          ],
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
