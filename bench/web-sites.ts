/**
 * The two sites the web benchmarks (bench/web-weight.ts, bench/lighthouse.ts) load, side by
 * side in one run: the product (the real server, NODE_ENV=production, serving the built app
 * from apps/web/dist on a fresh PGlite directory) and the floor (bench/floor: a minimal Vite +
 * React page, built now by the same Vite with the same precompression and served by the same
 * `registerSpa`), so the two differ only in the page.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import Fastify from 'fastify';
import { build } from 'vite';
import { registerSpa } from '../apps/server/src/http/spa.ts';
import { precompress } from '../apps/web/precompress.ts';
import { startServer } from './calls-server.ts';

export interface Site {
  url: string;
  stop: () => Promise<void>;
}

export async function startFloor(): Promise<Site> {
  const outDir = await mkdtemp(join(tmpdir(), 'upnext-bench-floor-'));
  await build({
    configFile: false,
    root: join(import.meta.dirname, 'floor'),
    logLevel: 'warn',
    plugins: [react(), precompress()],
    build: { outDir, emptyOutDir: true },
  });
  const app = Fastify();
  await registerSpa(app, outDir);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    stop: async () => {
      await app.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

export function startProduct(): Promise<Site> {
  return startServer(0, { NODE_ENV: 'production', HOST: '127.0.0.1' });
}
