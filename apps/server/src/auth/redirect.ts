import { isIP } from 'node:net';

/**
 * Decides where the browser may be sent after an email link or OAuth (SECURITY.md §8): the
 * site URL's scheme, host and port (any port on loopback), or a glob of URI_ALLOW_LIST.
 * Anything else, including unparsable input, silently becomes the site URL.
 */
export type RedirectPolicy = { siteUrl: string; allowList: readonly string[] };

const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The authority as typed, before the URL parser normalises `2130706433` into `127.0.0.1`. */
function rawHost(candidate: string): string | undefined {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(candidate);
  if (!match?.[1]) return undefined;
  return match[1].replace(/:\d*$/, '').toLowerCase();
}

/** gobwas/glob semantics as GoTrue uses them: `*` stops at `.` and `/`, `**` does not. */
function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '*') {
      if (glob[i + 1] === '*') {
        source += '.*';
        i++;
      } else {
        source += '[^./]*';
      }
    } else if (char === '?') {
      source += '[^./]';
    } else {
      source += char.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

function parseSafely(candidate: string): URL | undefined {
  // No whitespace, control characters or backslashes: they are how parsers get confused.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is what it looks for
  if (/[\s\u0000-\u001f\u007f\\]/.test(candidate)) return undefined;
  if (!URL.canParse(candidate)) return undefined; // relative and protocol-relative (//evil.com)
  const url = new URL(candidate);
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return undefined;
  if (url.username || url.password || candidate.includes('@')) return undefined; // user-info
  const special = url.protocol === 'http:' || url.protocol === 'https:';
  if (special) {
    const typed = rawHost(candidate);
    if (!typed) return undefined;
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const ip = isIP(hostname);
    // IPv4 only as the dotted form typed (not 2130706433 or 0x7f.1), and only loopback.
    if (ip === 4 && typed.replace(/\.$/, '') !== hostname) return undefined;
    if (ip !== 0 && !isLoopback(hostname)) return undefined;
    if (
      ip === 0 &&
      !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(hostname)
    ) {
      return undefined;
    }
  }
  return url;
}

export function isAllowedRedirect(candidate: string, policy: RedirectPolicy): boolean {
  const url = parseSafely(candidate);
  if (!url) return false;
  const site = new URL(policy.siteUrl);
  const special = url.protocol === 'http:' || url.protocol === 'https:';
  if (special && url.protocol === site.protocol && url.hostname === site.hostname) {
    if (url.port === site.port || isLoopback(url.hostname)) return true;
  }
  const withoutFragment = candidate.split('#', 1)[0] as string;
  const forms = new Set([withoutFragment, url.href.split('#', 1)[0] as string]);
  return policy.allowList.some((entry) => {
    const pattern = globToRegExp(entry.split('#', 1)[0] as string);
    // Both forms name the same place: the parse above refused everything ambiguous.
    return [...forms].some((form) => pattern.test(form));
  });
}

/** `redirect_to` if allowed, else the Referer if allowed, else the site URL. */
export function resolveRedirect(
  policy: RedirectPolicy,
  requested: string | undefined | null,
  referer?: string | undefined,
): string {
  if (requested && isAllowedRedirect(requested, policy)) return requested;
  if (!requested && referer && isAllowedRedirect(referer, policy)) return referer;
  return policy.siteUrl;
}
