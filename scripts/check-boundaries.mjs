#!/usr/bin/env node
// Import boundaries that keep the code navigable (docs/ARCHITECTURE.md), checked on every
// `npm run lint`: Biome's noRestrictedImports matches import strings, not the files they
// resolve to, so a relative `../../live/...` inside features/ would slip past it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const web = 'apps/web/src';
const server = 'apps/server/src';

/** [the importing file's area, the imported file's area, why] for each refused import. */
const rules = [
  {
    from: (f) => featureOf(f),
    to: (t, f) => featureOf(t) && featureOf(t) !== featureOf(f),
    why: 'features never import each other (routes in app/ compose them; share through entities/)',
  },
  {
    from: (f) => /^apps\/web\/src\/(entities|components|lib)\//.test(f),
    to: (t) => t.startsWith(`${web}/features/`) || t.startsWith(`${web}/app/`),
    why: 'entities, components and lib are below features and app: they never import them',
  },
  {
    from: (f) => f.startsWith(`${server}/modules/`) && !/\.routes\.ts$|\.test\.ts$/.test(f),
    to: (t) => t.startsWith(`${server}/http/`),
    why: 'domain modules do not depend on the HTTP layer (only their *.routes.ts adapt to it)',
  },
];

function featureOf(file) {
  const match = /^apps\/web\/src\/features\/([^/]+)\//.exec(file);
  return match?.[1];
}

function* sources(dir) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') yield* sources(path);
    } else if (/\.(ts|tsx|mts|mjs|js)$/.test(entry.name)) yield path;
  }
}

const importPattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
const problems = [];
for (const file of [...sources(web), ...sources(server)]) {
  const text = readFileSync(join(root, file), 'utf8');
  for (const match of text.matchAll(importPattern)) {
    const target = relative(root, resolve(root, dirname(file), match[1]))
      .split(sep)
      .join('/');
    for (const rule of rules) {
      if (rule.from(file) && rule.to(target, file)) {
        const line = text.slice(0, match.index).split('\n').length;
        problems.push(`${file}:${line} imports ${match[1]}: ${rule.why}`);
      }
    }
  }
}

// The auth service has the modules' shape: GoTrue's statuses and codes are chosen in one table
// (auth/errors.ts), and only its repositories touch tables (types may be imported anywhere).
const authRules = [
  {
    pattern: /new AuthError\(/g,
    allowed: (file) => file.endsWith('/auth/errors.ts'),
    why: 'builds an AuthError: add a row to the table in auth/errors.ts',
  },
  {
    pattern: /^import (?!type )[^;]*from '(?:drizzle-orm|[./]*db\/schema\/[^']*)';/gm,
    allowed: (file) => file.endsWith('.repository.ts'),
    why: 'touches tables outside a repository: move the query into an auth/*.repository.ts',
  },
];
for (const file of sources(`${server}/auth`)) {
  if (file.endsWith('.test.ts') || file.endsWith('/testing.ts')) continue;
  const text = readFileSync(join(root, file), 'utf8');
  for (const rule of authRules) {
    if (rule.allowed(file)) continue;
    for (const match of text.matchAll(rule.pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      problems.push(`${file}:${line} ${rule.why}`);
    }
  }
}

if (problems.length > 0) {
  console.error(`Import boundaries: ${problems.length} crossing(s)\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('Import boundaries: none crossed');
