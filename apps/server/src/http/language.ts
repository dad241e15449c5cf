import { acceptedLanguages, type Language, pickLanguage } from '@upnext/contract/languages';
import type { FastifyRequest } from 'fastify';

/**
 * The language a request asks for (its Accept-Language; the web app sends its page's language),
 * one of ours, else English: what the server writes the caller's messages in.
 */
export function requestLanguage(request: Pick<FastifyRequest, 'headers'>): Language {
  return pickLanguage(acceptedLanguages(request.headers['accept-language']));
}
