import type { Plugin } from 'vite';

/** A Mantine component's class names; its stylesheet has the same name in the package. */
const CLASS_MODULE = /\/@mantine\/(core|dates|notifications|charts)\/esm\/.*\/(\w+)\.module\.mjs$/;
/** A Mantine package as the dev server pre-bundles it: one module, so its whole stylesheet. */
const DEV_BUNDLE = /\/\.vite\/deps\/@mantine_(core|dates|notifications|charts)\.js(?:\?|$)/;

function stylesheetOf(id: string): string | null {
  const bundle = DEV_BUNDLE.exec(id);
  if (bundle) return `@mantine/${bundle[1]}/styles.css`;
  const match = CLASS_MODULE.exec(id);
  if (!match) return null;
  const [, pkg, name] = match;
  return pkg === 'core' ? `@mantine/core/styles/${name}.css` : `@mantine/${pkg}/styles.css`;
}

/**
 * Each Mantine component brings its own stylesheet: the module of its class names imports the
 * matching `styles/<Name>.css` (the whole `styles.css` for the smaller packages). The CSS then
 * follows the component into the chunk that uses it, so a page downloads, and waits for, only
 * the styles of what it shows; a dependency's styles come before the component's own, as
 * Mantine requires. The base styles every page needs are imported by `src/main.tsx`. The dev
 * server pre-bundles each package into one module: it gets the package's whole stylesheet.
 */
export function mantineCss(): Plugin {
  return {
    name: 'upnext:mantine-css',
    transform(code, id) {
      const sheet = stylesheetOf(id);
      if (!sheet) return null;
      // Appended, not prepended: imports are hoisted anyway, and the code's source map still holds.
      return { code: `${code}\nimport '${sheet}';\n`, map: null };
    },
  };
}
