import {
  acceptedLanguages,
  type Language,
  languageCookie,
  pickLanguage,
} from '@upnext/contract/languages';
import type { FastifyRequest } from 'fastify';

/**
 * The language a request asks for (its Accept-Language; the web app sends its page's language),
 * one of ours, else English: what the server writes the caller's messages in.
 */
export function requestLanguage(request: Pick<FastifyRequest, 'headers'>): Language {
  return pickLanguage(acceptedLanguages(request.headers['accept-language']));
}

/** The value of the language cookie in a Cookie header, if any. */
function cookieLanguage(header: string | undefined): string | null {
  for (const pair of header?.split(';') ?? []) {
    const [name, value] = pair.trim().split('=');
    if (name === languageCookie) return value ?? null;
  }
  return null;
}

/**
 * The language a page navigation starts in, as the web app picks it (lib/i18n.ts) as far as
 * the server can see: the visitor's choice (its cookie), else the browser's languages.
 */
export function pageLanguage(request: Pick<FastifyRequest, 'headers'>): Language {
  return pickLanguage([
    cookieLanguage(request.headers.cookie),
    ...acceptedLanguages(request.headers['accept-language']),
  ]);
}
