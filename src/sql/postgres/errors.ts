/**
 * How PostgreSQL errors read: SQLSTATE codes to the classes of driver-errors.ts.
 */
import { isNetworkError, msgNoDatabase, MSG_NO_SSL, type ErrorClass } from '../driver-errors';

/** A text value (written or filtered on) holding U+0000. */
export const MSG_NUL_TEXT = 'A text value holds the character U+0000 (NUL), which PostgreSQL cannot store or compare';

export function classifyPostgres(e: unknown): ErrorClass {
  const err = e as { code?: string; message?: string; detail?: string; constraint_name?: string; table_name?: string };
  // detail: 'Key (code)=(A1) already exists.' / 'Key (id)=(1) is still referenced from table "x".'
  const keyCols = /^Key \((.+?)\)=/.exec(err.detail ?? '')?.[1];
  switch (err.code) {
    case '28P01':
    case '28000':
      return { kind: 'credentials' };
    case '42501':
      return { kind: 'permission' };
    case '23505':
      return { kind: 'unique', what: keyCols ?? err.constraint_name ?? 'key' };
    case '23503': {
      const referrer = /referenced from table "(.+)"/.exec(err.detail ?? '')?.[1];
      return referrer
        ? { kind: 'foreignKey', what: `table ${referrer}`, missingParent: false }
        : { kind: 'foreignKey', what: keyCols ?? err.constraint_name ?? 'the foreign key', missingParent: true };
    }
    case '57014':
      return { kind: 'timeout' };
    case '22021':
      // 'invalid byte sequence for encoding "UTF8": 0x00': PostgreSQL's text holds no NUL, which JSON can carry.
      if (/0x00\b/.test(err.message ?? '')) return { kind: 'statement', message: MSG_NUL_TEXT };
      break;
    case '57P01':
    case '57P03':
    case '08000':
    case '08003':
    case '08006':
    case '08001':
    case '3D000':
      // 'database "shop" does not exist': dropped or renamed (503, as a missing SQLite file).
      return err.code === '3D000' ? { kind: 'unreachable', message: msgNoDatabase(/"(.*)"/.exec(err.message ?? '')?.[1] ?? '') } : { kind: 'unreachable' };
  }
  if ((e as { sslRefused?: boolean }).sslRefused) return { kind: 'unreachable', message: MSG_NO_SSL };
  if (isNetworkError(e)) return { kind: 'unreachable' };
  if (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) return { kind: 'statement', message: err.message ?? 'Invalid statement' };
  return { kind: 'unknown' };
}
