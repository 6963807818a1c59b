-- Schema changes made from the dashboard, recorded as migrations of a project database.
CREATE TABLE nc_schema_migrations (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  db_alias TEXT NOT NULL,
  title TEXT NOT NULL,
  up TEXT NOT NULL,
  down TEXT NOT NULL,
  renames TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL,
  error TEXT,
  created_at TEXT NOT NULL,
  applied_at TEXT
);

CREATE INDEX nc_schema_migrations_project ON nc_schema_migrations (project_id, db_alias, seq);
