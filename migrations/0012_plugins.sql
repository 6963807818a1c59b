-- App Store plugins (instance-wide): one row per installed plugin; the input is JSON with its secret
-- fields sealed by the secret box (never stored in clear).
CREATE TABLE nc_plugins (
  title TEXT PRIMARY KEY,
  category TEXT NOT NULL,
  input TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- Files uploaded to Attachment cells: where they are stored and which row and column hold them.
-- state: 'pending' until the cell write commits, then 'attached'. The sweep removes files no row
-- holds any more (deleted rows, removed entries) and pending ones past their grace period.
CREATE TABLE nc_files (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  db_alias TEXT NOT NULL,
  tn TEXT NOT NULL,
  cn TEXT NOT NULL,
  pk TEXT NOT NULL,
  storage TEXT NOT NULL,
  storage_key TEXT NOT NULL,
  name TEXT NOT NULL,
  mimetype TEXT NOT NULL,
  size INTEGER NOT NULL,
  state TEXT NOT NULL,
  check_due INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX nc_files_row ON nc_files (project_id, db_alias, tn, pk);
CREATE INDEX nc_files_state ON nc_files (state, check_due);
