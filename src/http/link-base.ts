/**
 * The address links handed to a signed-in caller start with (invite links, shared view links):
 * NC_PUBLIC_URL when set, else the address the caller reached Tablo at, so that a link copied on
 * http://tablo.internal:8080 does not point at localhost. Behind a trusted proxy, the host and
 * scheme it reports (X-Forwarded-Host, X-Forwarded-Proto) are the ones the client used.
 *
 * NC_PUBLIC_URL may carry a path (https://corp.example/tablo, Tablo behind a reverse proxy under a
 * path): links then start with it, and the paths Tablo hands out (file links, API endpoints,
 * cookie paths) start with publicPath.
 *
 * note: only for links a signed-in caller asks for. A password reset link is asked for by anyone, so
 * it never takes the request's Host (a made-up Host would mail the owner a link to another server).
 */
import type { Config } from '../config/config';
import { cameOverHttps, requestedHost } from './client-address';

/** The path NC_PUBLIC_URL puts Tablo under ('/tablo'), '' at the root; no trailing slash. */
export function publicPath(config: Pick<Config, 'publicUrl'>): string {
  if (!config.publicUrl) return '';
  return new URL(config.publicUrl).pathname.replace(/\/+$/, '');
}

/** A server path as the public sees it ('/api/files/1' -> '/tablo/api/files/1' under a path). */
export const publicPathOf = (config: Pick<Config, 'publicUrl'>, path: string): string => `${publicPath(config)}${path}`;

/** Where links start, without a trailing slash. */
export function linkBase(config: Config, request: Request): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const url = new URL(request.url);
  const scheme = url.protocol === 'http:' && cameOverHttps(config, request) ? 'https:' : url.protocol;
  return `${scheme}//${requestedHost(config, request) ?? url.host}`;
}
