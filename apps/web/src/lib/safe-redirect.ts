/**
 * A path to return to after sign-in, only if it stays on this origin (never `//evil.example`,
 * `/\evil.example` or `https://...`); anything else gives `fallback`.
 */
export function safeRedirectPath(value: string | null | undefined, fallback = '/admin'): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return fallback;
  }
  try {
    const base = window.location.origin;
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
