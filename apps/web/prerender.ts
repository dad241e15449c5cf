import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spaRoutes } from '@upnext/contract/routes';
import react from '@vitejs/plugin-react';
import { build, type Manifest, type Plugin } from 'vite';
import { lightStart } from './light-start.ts';
import { mantineCss } from './mantine-css.ts';

/**
 * The public pages that paint before any JavaScript: a visitor's first page, and the page a
 * queue's QR code opens (`src/app/public-pages.ts`). Each names the module of its page, whose
 * chunks' styles the page's HTML carries, and whose chunks it preloads.
 */
const PAGES = [
  { path: spaRoutes.home, module: 'src/features/marketing/pages/HomePage.tsx' },
  { path: spaRoutes.pricing, module: 'src/features/marketing/pages/PricingPage.tsx' },
  { path: spaRoutes.join, module: 'src/app/routes/JoinPage.tsx' },
];

/** Where the server finds a page's HTML (`apps/server/src/http/spa.ts` reads the same names). */
const PRERENDERED_DIR = 'prerendered';
const fileOf = (path: string) => `${path === '/' ? 'index' : path.slice(1)}.html`;

/**
 * The chunk of `key` and every chunk it imports statically, the imported first: a component's
 * styles come after those of the components it builds on, as in the app.
 */
function closure(manifest: Manifest, key: string, seen = new Set<string>(), order: string[] = []) {
  if (seen.has(key)) return order;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`prerender: ${key} is not a chunk of the build`);
  seen.add(key);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, seen, order);
  order.push(key);
  return order;
}

const STYLESHEET_LINK = /<link rel="stylesheet" crossorigin href="\/([^"]+)">\s*/g;

/**
 * public.html with the styles of the entry and of the page's chunks in the page itself instead
 * of linked: it paints with the HTML alone, without waiting for stylesheets on one connection
 * after another. A stylesheet that points to other files stays linked, as
 * their addresses are relative to it. The page's chunks are preloaded with the entry's, rather
 * than asked for once the entry has run.
 */
async function withStyles(template: string, manifest: Manifest, module: string, outDir: string) {
  const files = new Set([...template.matchAll(STYLESHEET_LINK)].map((match) => match[1] ?? ''));
  const preloads: string[] = [];
  for (const key of closure(manifest, module)) {
    for (const css of manifest[key]?.css ?? []) files.add(css);
    const file = manifest[key]?.file;
    if (file && !template.includes(`/${file}"`)) {
      preloads.push(`<link rel="modulepreload" crossorigin href="/${file}">`);
    }
  }
  const inline: string[] = [];
  const links: string[] = [];
  for (const file of files) {
    const css = await readFile(join(outDir, file), 'utf8');
    const linked = /url\((?!\s*["']?data:)/.test(css);
    if (!linked) inline.push(css);
    // A disabled link is not fetched, and tells Vite's loader of the page's chunks that this
    // stylesheet is in the page already: it adds no second copy, and no restyling of the page.
    links.push(`<link rel="stylesheet" crossorigin href="/${file}"${linked ? '' : ' disabled'}>`);
  }
  const head = [...preloads, ...links, `<style>${inline.join('\n')}</style>`].join('\n    ');
  return template.replace(STYLESHEET_LINK, '').replace('</head>', `  ${head}\n  </head>`);
}

/**
 * After the light start's build (`vite.public.config.ts`): builds `src/prerender.tsx` for Node
 * with the same stand-ins, renders each of `PAGES` as a signed-out English visitor first sees
 * it, and writes it into a copy of public.html with the page's title and the styles of its
 * chunks in it, so it paints before any script runs; `public.tsx` then hydrates it. Runs before
 * the precompression, which compresses these files too.
 */
export function prerender(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'upnext:prerender',
    apply: (config, { command }) => command === 'build' && !config.build?.ssr,
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      async handler(error) {
        if (error) return;
        const serverDir = join(root, 'node_modules/.prerender');
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          plugins: [react(), mantineCss(), lightStart()],
          ssr: { noExternal: true },
          build: {
            ssr: 'src/prerender.tsx',
            outDir: serverDir,
            emptyOutDir: true,
            sourcemap: false,
          },
        });
        const { renderPage } = (await import(
          pathToFileURL(join(serverDir, 'prerender.js')).href
        )) as typeof import('./src/prerender.tsx');
        const manifestFile = join(outDir, '.vite/manifest.json');
        const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
        const index = await readFile(join(outDir, 'public.html'), 'utf8');
        await mkdir(join(outDir, PRERENDERED_DIR), { recursive: true });
        for (const page of PAGES) {
          const { html, title } = await renderPage(page.path);
          const template = await withStyles(index, manifest, page.module, outDir);
          const document = template
            .replace(/<title>.*?<\/title>/s, title)
            .replace('<div id="root"></div>', `<div id="root" data-prerendered="en">${html}</div>`);
          await writeFile(join(outDir, PRERENDERED_DIR, fileOf(page.path)), document);
        }
        // Only this step reads them; the server must not send them.
        await Promise.all([
          rm(join(outDir, '.vite'), { recursive: true }),
          rm(serverDir, { recursive: true }),
        ]);
      },
    },
  };
}
