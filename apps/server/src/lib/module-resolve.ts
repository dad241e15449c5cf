import type { ResolveFnOutput, ResolveHookSync } from 'node:module';

/**
 * A module resolve hook that spares Node's ESM resolver a cost it pays for every import inside
 * drizzle-orm: to tell a resolved file's format, Node 24 reads its package scope's
 * `package.json` and (by spreading the result, `getPackageScopeConfig` in
 * `internal/modules/package_json_reader`) JSON-parses its `exports` field each time, and
 * drizzle-orm's is 130 kB. The server's start resolves ~500 relative imports in drizzle-orm
 * and ~100 imports of `drizzle-orm` itself (two parses each): ~0.45 s of CPU, about half of
 * all its module loading.
 *
 * drizzle-orm is `"type": "module"` with no nested `package.json`, so a relative `.js`
 * specifier imported by one of its files is that URL and an ES module: what Node's resolver
 * answers too, without reading anything. `drizzle-orm` and its subpaths are resolved by Node
 * once per importing directory and conditions (all a bare specifier's resolution depends on).
 * Anything else goes to Node's resolver unchanged (`require` of its `.cjs` files included). `module-resolve.test.ts` checks that loading
 * drizzle-orm with the hook gives the same modules, in the same formats, as without it.
 */
const bareResolutions = new Map<string, ResolveFnOutput>();

export const resolveDrizzle: ResolveHookSync = (specifier, context, nextResolve) => {
  const parent = context.parentURL;
  if (parent && (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/'))) {
    // Node resolves a bare specifier by the importing file's directory (and the conditions),
    // and each of the server's ~100 files that import drizzle-orm paid two parses.
    const key = `${specifier}\0${context.conditions.join()}\0${parent.slice(0, parent.lastIndexOf('/'))}`;
    let resolved = bareResolutions.get(key);
    if (!resolved) {
      resolved = nextResolve(specifier, context);
      bareResolutions.set(key, resolved);
    }
    return { ...resolved, shortCircuit: true };
  }
  if (
    context.parentURL?.includes('/node_modules/drizzle-orm/') &&
    (specifier.startsWith('./') || specifier.startsWith('../')) &&
    specifier.endsWith('.js') &&
    context.conditions.includes('import')
  ) {
    return {
      url: new URL(specifier, context.parentURL).href,
      format: 'module',
      shortCircuit: true,
    };
  }
  return nextResolve(specifier, context);
};
