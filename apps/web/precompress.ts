import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text the browser fetches; source maps are left alone (only developer tools read them). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

async function compressFile(path: string): Promise<void> {
  const data = await readFile(path);
  const [br, gzipped] = await Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gz(data, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  // A variant that saves nothing is not written: the server then sends the file as it is.
  await Promise.all([
    br.length < data.length ? writeFile(`${path}.br`, br) : null,
    gzipped.length < data.length ? writeFile(`${path}.gz`, gzipped) : null,
  ]);
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, at maximum
 * compression: done once here instead of on every request, and served by the server
 * (`apps/server/src/http/spa.ts`) to browsers that accept them.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'upnext:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // After the public folder is copied too, so everything the server sends is covered.
    async closeBundle(error) {
      if (error) return;
      const files = await readdir(outDir, { recursive: true });
      await Promise.all(
        files
          .filter((file) => COMPRESSIBLE.test(file))
          .map((file) => compressFile(join(outDir, file))),
      );
    },
  };
}
