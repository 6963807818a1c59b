-- Comments on rows: who wrote what, when, on which row (by its id) of which table.
CREATE TABLE nc_comments (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  db_alias TEXT NOT NULL,
  tn TEXT NOT NULL,
  pk TEXT NOT NULL,
  user_id TEXT,
  user_email TEXT,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX nc_comments_row ON nc_comments (project_id, db_alias, tn, pk);

-- The row history reads the data changes of one row.
CREATE INDEX nc_audit_row ON nc_audit (project_id, db_alias, tn, pk);
