import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// What the server imports from drizzle-orm (grep "from 'drizzle-orm").
const entries = [
  'drizzle-orm',
  'drizzle-orm/pg-core',
  'drizzle-orm/pglite',
  'drizzle-orm/pglite/migrator',
  'drizzle-orm/node-postgres',
  'drizzle-orm/node-postgres/migrator',
];

/**
 * Loads the entries in a fresh Node, with or without the hook, and lists every module loaded
 * (URL and format, from a load hook) and how many resolutions the hook answered itself.
 */
function load(withHook: boolean): { modules: string[]; answered: number } {
  const hook = pathToFileURL(`${import.meta.dirname}/module-resolve.ts`).href;
  const script = `
    import { registerHooks } from 'node:module';
    import { resolveDrizzle } from ${JSON.stringify(hook)};
    const modules = [];
    let answered = 0;
    registerHooks({
      load(url, context, next) {
        const loaded = next(url, context);
        modules.push(url + ' ' + loaded.format);
        return loaded;
      },
    });
    if (${withHook}) {
      registerHooks({
        resolve(specifier, context, next) {
          const resolved = resolveDrizzle(specifier, context, next);
          if (resolved.shortCircuit) answered++;
          return resolved;
        },
      });
    }
    for (const entry of ${JSON.stringify(entries)}) await import(entry);
    console.log(JSON.stringify({ modules, answered }));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: import.meta.dirname,
    encoding: 'utf8',
  });
  return JSON.parse(output);
}

describe('resolveDrizzle', () => {
  it('loads the same drizzle-orm modules, in the same formats, as Node alone', () => {
    const plain = load(false);
    const hooked = load(true);
    expect(plain.modules.length).toBeGreaterThan(100);
    expect(hooked.modules).toEqual(plain.modules);
    // Not silently idle (say, drizzle-orm laid out otherwise after an upgrade): it answers
    // most of drizzle-orm's imports itself.
    expect(hooked.answered).toBeGreaterThan(200);
    expect(plain.answered).toBe(0);
  });
});
