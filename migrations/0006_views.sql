-- Saved views per table or SQL view (grid, gallery, kanban, calendar, form) and the public links
-- that share them. Views name columns by SQL name inside query_params (JSON). Each table has one
-- default grid view (is_default = 1), made on first list, which cannot be deleted.
CREATE TABLE nc_views (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  db_alias TEXT NOT NULL,
  tn TEXT NOT NULL,
  title TEXT NOT NULL,
  type TEXT NOT NULL,
  view_order REAL NOT NULL,
  -- JSON: { where, sort, fields: [{ cn, show, width }], rowHeight, groupBy, coverColumn, dateColumn, endDateColumn, form }
  query_params TEXT NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0,
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX nc_views_title ON nc_views(project_id, db_alias, tn, title);

-- Public links to a view; the password is stored hashed (argon2id), never in clear.
CREATE TABLE nc_shared_views (
  uuid TEXT PRIMARY KEY,
  view_id TEXT NOT NULL REFERENCES nc_views(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  db_alias TEXT NOT NULL,
  password_hash TEXT,
  allow_csv_download INTEGER NOT NULL DEFAULT 0,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX nc_shared_views_view ON nc_shared_views(view_id);
