/** What every data-access call receives: the project database, the caller, limits, the audit sink. */
import type { Actor } from '../lib/actor';
import type { ProjectDb } from '../schema/project-db';
import type { Executor } from '../sql/dialect';
import type { AclRules } from '../meta/acl-repo';
import type { PendingWrites, WriteEventBus } from './write-events';

export interface DataAuditEntry {
  tn: string;
  cn: string | null;
  pk: string;
  value: string | null;
  prevValue: string | null;
  op: 'insert' | 'update' | 'delete' | 'link' | 'unlink';
  /** A bulk insert's one entry: the ids of its rows (null where not known), for the store to find a row's entry by. */
  ids?: (string | null)[];
}

/**
 * Where audit records go (the REST and GraphQL modules write them to the metadata store). It is called
 * once the write has committed, so a record it cannot write is its own concern: it does not throw.
 */
export type AuditSink = (entries: DataAuditEntry[], actor: Actor) => Promise<void>;

export interface DataContext {
  pdb: ProjectDb;
  actor: Actor;
  maxLimit: number;
  countTimeoutMs: number;
  audit?: AuditSink;
  /** Stored data rights of the project database (absent: every role has its default rights). */
  acl?: AclRules;
  /** Set inside a transaction: every statement runs on it. */
  exec?: Executor;
  /** Where committed writes are announced (webhooks, realtime); absent: nobody is told. */
  events?: WriteEventBus;
  /** Set inside a transaction: its writes, announced once it commits. */
  pending?: PendingWrites;
}

export const executorOf = (dc: DataContext): Executor => dc.exec ?? dc.pdb.db.driver;

/** The table model by SQL name (throws when the model lost it: a schema sync is needed). */
export function tableOf(dc: DataContext, tn: string) {
  const t = dc.pdb.model.tables.find((x) => x.tn === tn);
  if (!t) throw new Error(`table ${tn} missing from the model`);
  return t;
}
