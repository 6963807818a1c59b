/**
 * The SSL files of a connection (server CA, client certificate and key), checked before a driver
 * hands them to TLS: there a file that is not PEM throws outside any request, which ended the
 * whole process instead of answering the form that sent it.
 */
import { createSecureContext } from 'node:tls';
import { badRequest } from '../lib/errors';

/** Refuses (400, naming the file) SSL material that TLS cannot load. */
export function assertSslMaterial(ssl: { ca?: string; key?: string; cert?: string } | undefined): void {
  if (!ssl) return;
  const check = (what: string, options: Parameters<typeof createSecureContext>[0]) => {
    try {
      createSecureContext(options);
    } catch (e) {
      throw badRequest(`The ${what} is not a usable PEM file: ${(e as Error).message}`);
    }
  };
  if (ssl.ca) check('server CA', { ca: ssl.ca });
  if (ssl.cert) check('client cert', { cert: ssl.cert });
  if (ssl.key) check('client key', { key: ssl.key });
  if (ssl.cert && ssl.key) check('client cert and key pair', { cert: ssl.cert, key: ssl.key });
}
