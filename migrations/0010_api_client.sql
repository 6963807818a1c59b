-- The API client's saved requests (collections) and environments (variables), per project.
CREATE TABLE nc_api_client_items (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  collection TEXT NOT NULL DEFAULT '',
  name TEXT NOT NULL,
  data TEXT NOT NULL,
  created_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX nc_api_client_items_project ON nc_api_client_items (project_id, kind);

-- Each caller's last requests with their answers, per project (the newest 500 are kept).
CREATE TABLE nc_api_client_history (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  entry TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX nc_api_client_history_owner ON nc_api_client_history (owner, project_id, seq);
