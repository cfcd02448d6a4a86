import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * A page's loaders call the shop's API in process (render-pages.ts), on behalf of the browser's
 * request. What only the outer request knows travels in this header, proved by a key made anew
 * each time the process starts, so nothing from outside can claim it.
 */
export const innerCallHeader = 'x-mango-inner-call';
const key = randomBytes(24).toString('base64url');
const keyBytes = Buffer.from(key);

/** The header an in-process call carries for `outer`, the browser's request. */
export function innerCallHeaders(outer: FastifyRequest): Record<string, string> {
  return { [innerCallHeader]: `${key} ${requestProtocol(outer)}` };
}

/**
 * The protocol the browser used: the outer request's for an in-process call (always http on its
 * own), otherwise the request's own, as TRUST_PROXY lets it be read behind a TLS proxy.
 */
export function requestProtocol(request: FastifyRequest): 'http' | 'https' {
  const mark = request.headers[innerCallHeader];
  if (typeof mark === 'string') {
    const [given = '', protocol] = mark.split(' ');
    const givenBytes = Buffer.from(given);
    const proved = givenBytes.length === keyBytes.length && timingSafeEqual(givenBytes, keyBytes);
    if (proved && (protocol === 'https' || protocol === 'http')) return protocol;
  }
  return request.protocol;
}
