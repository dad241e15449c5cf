import { resolve } from 'node:path';
import type { Plugin } from 'vite';

const src = resolve(import.meta.dirname, 'src');

/** What the public pages' components import, and what their light start gives them instead. */
const STAND_INS: Readonly<Record<string, string>> = {
  'react-router': resolve(src, 'light/react-router.tsx'),
  'react-i18next': resolve(src, 'light/react-i18next.ts'),
};
const I18N = resolve(src, 'lib/i18n.ts');
const LIGHT_I18N = resolve(src, 'light/i18n.ts');

/**
 * The public pages' light start (`src/public.tsx`, built by `vite.public.config.ts` and
 * prerendered by `prerender.ts`): the same components as the app's, with small stand-ins for
 * react-router, react-i18next and the app's i18next (`src/light/`), so the page loads neither the
 * data router nor i18next. A component that comes to use more of them than the stand-ins have
 * fails this build (a missing export), not the visitor.
 */
export function lightStart(): Plugin {
  return {
    name: 'upnext:light-start',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const standIn = STAND_INS[source];
      if (standIn) return standIn;
      if (!importer || !source.endsWith('/i18n.ts')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === I18N ? LIGHT_I18N : null;
    },
  };
}
