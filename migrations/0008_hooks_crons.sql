-- Webhooks per table (after insert / update / delete), their delivery queue and the log of each
-- delivery attempt; cron jobs per project and their runs. A run row is also the lease that makes a
-- job run once per tick when several instances share this store (unique job + tick).
CREATE TABLE nc_hooks (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  db_alias TEXT NOT NULL,
  tn TEXT NOT NULL,
  title TEXT NOT NULL,
  event TEXT NOT NULL,
  -- the where language, matched against the written row; NULL = every row
  where_cond TEXT,
  active INTEGER NOT NULL,
  -- JSON: { type: url | email | slack | discord | teams | mattermost, ... }
  notification TEXT NOT NULL,
  -- signing secret of url hooks, encrypted (secret-box)
  secret TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX nc_hooks_table ON nc_hooks (project_id, db_alias, tn);

CREATE TABLE nc_hook_deliveries (
  id TEXT PRIMARY KEY,
  hook_id TEXT NOT NULL REFERENCES nc_hooks(id) ON DELETE CASCADE,
  event TEXT NOT NULL,
  -- JSON payload { event, table, data, previous?, hook, at }
  payload TEXT NOT NULL,
  -- pending (a finished delivery leaves the queue; its attempts stay in nc_hook_logs)
  status TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  next_at TEXT NOT NULL,
  -- '' = free; an instance delivering it holds it until this time
  lease_until TEXT NOT NULL,
  lease_owner TEXT,
  response_status INTEGER,
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX nc_hook_deliveries_due ON nc_hook_deliveries (status, next_at);
CREATE INDEX nc_hook_deliveries_hook ON nc_hook_deliveries (hook_id, created_at);

CREATE TABLE nc_hook_logs (
  id TEXT PRIMARY KEY,
  hook_id TEXT NOT NULL REFERENCES nc_hooks(id) ON DELETE CASCADE,
  delivery_id TEXT,
  event TEXT NOT NULL,
  -- success | error | pending (failed, another attempt is due)
  status TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  response_status INTEGER,
  error TEXT,
  duration_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX nc_hook_logs_hook ON nc_hook_logs (hook_id, created_at);

CREATE TABLE nc_crons (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  pattern TEXT NOT NULL,
  timezone TEXT NOT NULL,
  active INTEGER NOT NULL,
  -- JSON: { type: url, method, url, headers, body } | { type: sql, sql, dbAlias }
  action TEXT NOT NULL,
  last_run_at TEXT,
  last_status TEXT,
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX nc_crons_project ON nc_crons (project_id);

CREATE TABLE nc_cron_runs (
  id TEXT PRIMARY KEY,
  cron_id TEXT NOT NULL REFERENCES nc_crons(id) ON DELETE CASCADE,
  -- the scheduled time (ISO) or 'manual:<time>:<id>' for Run now
  tick TEXT NOT NULL,
  -- running | success | error
  status TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  duration_ms INTEGER,
  result TEXT,
  error TEXT,
  manual INTEGER NOT NULL
);
CREATE UNIQUE INDEX nc_cron_runs_tick ON nc_cron_runs (cron_id, tick);
CREATE INDEX nc_cron_runs_started ON nc_cron_runs (cron_id, started_at);
