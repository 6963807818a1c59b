-- SQL Client: saved queries of a project database (shared by its owners and creators) and each
-- user's history of runs (newest first, capped per user and database by the repository).
CREATE TABLE nc_sql_queries (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  db_alias TEXT NOT NULL,
  name TEXT NOT NULL,
  sql TEXT NOT NULL,
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX nc_sql_queries_name ON nc_sql_queries (project_id, db_alias, name);

-- user_id: the user's id, or 'master' for the master key (which has no user row).
CREATE TABLE nc_sql_history (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  db_alias TEXT NOT NULL,
  user_id TEXT NOT NULL,
  sql TEXT NOT NULL,
  -- ok | error | cancelled | timeout
  status TEXT NOT NULL,
  statements INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  ran_at TEXT NOT NULL
);
CREATE INDEX nc_sql_history_user ON nc_sql_history (project_id, db_alias, user_id, ran_at);
