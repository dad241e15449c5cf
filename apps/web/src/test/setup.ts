import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { i18n, withNamespaces } from '../lib/i18n.ts';

// The app loads text namespaces with their pages; a test renders any component at once.
await i18n.loadNamespaces(
  Object.keys(import.meta.glob('../locales/en/*.json')).map((path) =>
    path.replace(/^.*\/|\.json$/g, ''),
  ),
);
await withNamespaces(
  async () => null,
  ...Object.keys(import.meta.glob('../locales/en/*/*.json')).map((path) =>
    path.replace(/^\.\.\/locales\/en\/|\.json$/g, ''),
  ),
)();

// jsdom lacks the layout APIs Mantine and the router call.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverShim implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverShim;
window.scrollTo = () => {};
// Mantine's autosizing Textarea listens for web fonts loading; jsdom has no FontFaceSet.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}
Element.prototype.scrollIntoView = () => {};

afterEach(() => {
  cleanup();
});
