/**
 * The address links handed to a signed-in caller start with (invite links, shared view links):
 * NC_PUBLIC_URL when set, else the address the caller reached Tablo at, so that a link copied on
 * http://tablo.internal:8080 does not point at localhost. Behind a trusted proxy, the host and
 * scheme it reports (X-Forwarded-Host, X-Forwarded-Proto) are the ones the client used.
 *
 * note: only for links a signed-in caller asks for. A password reset link is asked for by anyone, so
 * it never takes the request's Host (a made-up Host would mail the owner a link to another server).
 */
import type { Config } from '../config/config';
import { cameOverHttps, requestedHost } from './client-address';

/** Where links start, without a trailing slash. */
export function linkBase(config: Config, request: Request): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const url = new URL(request.url);
  const scheme = url.protocol === 'http:' && cameOverHttps(config, request) ? 'https:' : url.protocol;
  return `${scheme}//${requestedHost(config, request) ?? url.host}`;
}
