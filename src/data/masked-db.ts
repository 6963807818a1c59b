/**
 * The project database as a restricted caller (editor, commenter, viewer, guest, API token of
 * such a role) sees it: the same database, but an error in the database's own words (which can name
 * hidden tables, columns and values) comes back as one plain sentence. Owners, creators and the
 * Super Admin keep the database's message, which they need to fix their schema.
 */
import type { Driver, Executor } from '../sql/dialect';
import type { ProjectDb } from '../schema/project-db';
import { AppError, badRequest } from '../lib/errors';

export const MSG_DATABASE_REFUSED = 'The database could not run this request';

const plain = (e: unknown): unknown => (e instanceof AppError && e.fromDatabase ? badRequest(MSG_DATABASE_REFUSED) : e);
const masked = <T>(p: Promise<T>): Promise<T> =>
  p.catch((e: unknown) => {
    throw plain(e);
  });

const maskExecutor = (x: Executor): Executor => ({
  query: (c) => masked(x.query(c)),
  execute: (c) => masked(x.execute(c)),
  // The driver's own savepoints stay (postgres.js needs them: a failed statement outside one fails the transaction).
  ...(x.savepoint ? { savepoint: (fn) => masked(x.savepoint!((sp) => fn(maskExecutor(sp)))) } : {}),
});

function maskDriver(d: Driver): Driver {
  return {
    ...maskExecutor(d),
    queryTimed: (c, ms) => masked(d.queryTimed(c, ms)),
    transaction: (fn) => masked(d.transaction((tx) => fn(maskExecutor(tx)))),
    ...(d.session ? { session: (fn) => masked(d.session!((conn) => fn(maskExecutor(conn)))) } : {}),
    ping: () => d.ping(),
    close: () => d.close(),
  } as Driver;
}

const views = new WeakMap<ProjectDb, ProjectDb>();

/** The project database for restricted callers (made once per open database). */
export function restrictedView(pdb: ProjectDb): ProjectDb {
  let v = views.get(pdb);
  if (!v) views.set(pdb, (v = { ...pdb, db: { ...pdb.db, driver: maskDriver(pdb.db.driver) } }));
  return v;
}
