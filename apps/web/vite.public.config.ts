import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { lightStart } from './light-start.ts';
import { mantineCss } from './mantine-css.ts';
import { precompress } from './precompress.ts';
import { prerender } from './prerender.ts';
import { type ModuleGraph, staticClosure } from './static-closure.ts';

const ENTRY = resolve(import.meta.dirname, 'src/public.tsx');
let start: { graph: ModuleGraph; modules: Set<string> } | undefined;

/** The light start's modules in one chunk: no second wave of small preloads, each gzipped apart. */
function startChunk(id: string, graph: ModuleGraph): string | null {
  if (start?.graph !== graph) start = { graph, modules: staticClosure(ENTRY, graph) };
  return start.modules.has(id) ? 'public' : null;
}

/**
 * The second build (`npm run build`, after `vite.config.ts`'s): the public pages' light start
 * (public.html, `src/public.tsx`), into the same `dist`. Then the prerender of those pages
 * (`prerender.ts`), and the precompression of every file of both builds.
 */
export default defineConfig({
  plugins: [react(), mantineCss(), lightStart(), prerender(), precompress()],
  build: {
    outDir: 'dist',
    // The app's build is there already.
    emptyOutDir: false,
    sourcemap: true,
    // Read by the prerender (prerender.ts), which then deletes it.
    manifest: true,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: { public: 'public.html' },
      output: {
        codeSplitting: {
          groups: [{ name: startChunk, debugName: 'public', tags: ['$initial'] }],
        },
      },
    },
  },
});
