import { spaRoutes } from '@upnext/contract/routes';
import type { ComponentType } from 'react';
import { withNamespaces } from '../lib/i18n.ts';

/** A route module's page, as react-router's `lazy` takes it. */
type PageModule = { Component: ComponentType };

/**
 * The public pages a visitor most often opens first, each with the texts it shows (beyond
 * `common`) and its title (a key of `common:titles`): the app's routes (`router.tsx`) and their
 * light start (`light/PublicPage.tsx`, which the server sends for these paths) load them alike.
 */
export const publicPages = {
  [spaRoutes.home]: {
    title: 'home',
    load: withNamespaces(
      (): Promise<PageModule> => import('../features/marketing/pages/HomePage.tsx'),
      'marketing',
      'marketing/home',
    ),
  },
  [spaRoutes.pricing]: {
    title: 'pricing',
    load: withNamespaces(
      (): Promise<PageModule> => import('../features/marketing/pages/PricingPage.tsx'),
      'marketing',
      'marketing/pricing',
    ),
  },
  [spaRoutes.join]: {
    title: 'join',
    load: withNamespaces(
      (): Promise<PageModule> => import('./routes/JoinPage.tsx'),
      'visit',
      'entities',
    ),
  },
} as const;

export type PublicPath = keyof typeof publicPages;

export function isPublicPath(path: string): path is PublicPath {
  return Object.hasOwn(publicPages, path);
}
