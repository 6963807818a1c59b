/**
 * What every route module receives: config, metadata store, secrets, logger. Services built on
 * them (auth, projects) are added by app.ts so each module reads them from one place.
 */
import type { Config } from './config/config';
import type { MetaStore } from './meta/store';
import type { Logger } from './lib/log';
import type { Secrets } from './boot/secrets';
import type { ProjectRegistry } from './schema/registry';
import type { WriteEventBus } from './data/write-events';

export interface BaseContext {
  config: Config;
  meta: MetaStore;
  secrets: Secrets;
  log: Logger;
  /** Absolute data directory. */
  dataDir: string;
  version: string;
  /** Called on shutdown (pools, timers), in order. */
  closers: Array<() => Promise<void>>;
}

/** The context of the composed app: the base plus the services every module shares. */
export interface AppContext extends BaseContext {
  projects: ProjectRegistry;
  /** Committed writes of project rows (webhooks subscribe; see src/data/write-events.ts). */
  writeEvents: WriteEventBus;
}
