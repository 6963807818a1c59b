-- Users, sessions, projects, their databases, members, API tokens, audit and key-value settings.
CREATE TABLE nc_users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT,
  firstname TEXT,
  lastname TEXT,
  -- comma list of global roles: super, user
  roles TEXT NOT NULL DEFAULT 'user',
  -- bumped on password change: older JWTs stop working
  token_version INTEGER NOT NULL DEFAULT 0,
  disabled INTEGER NOT NULL DEFAULT 0,
  invite_token_hash TEXT,
  invite_expires_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE nc_refresh_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES nc_users(id) ON DELETE CASCADE,
  family_id TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  expires_at TEXT NOT NULL,
  revoked_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX nc_refresh_tokens_family ON nc_refresh_tokens(family_id);

CREATE TABLE nc_password_resets (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES nc_users(id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE nc_projects (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'started',
  project_type TEXT NOT NULL DEFAULT 'rest',
  working_env TEXT NOT NULL DEFAULT 'dev',
  created_by TEXT REFERENCES nc_users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- One row per database of an environment; connection is encrypted with its own key.
CREATE TABLE nc_project_dbs (
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  env TEXT NOT NULL,
  db_alias TEXT NOT NULL,
  client TEXT NOT NULL,
  connection_enc TEXT NOT NULL,
  is_xcdb INTEGER NOT NULL DEFAULT 0,
  inflection_table TEXT NOT NULL DEFAULT 'camelize',
  inflection_column TEXT NOT NULL DEFAULT 'camelize',
  created_at TEXT NOT NULL,
  PRIMARY KEY (project_id, env, db_alias)
);

CREATE TABLE nc_project_users (
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES nc_users(id) ON DELETE CASCADE,
  roles TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (project_id, user_id)
);

-- User metadata of tables (display names, hidden columns, virtual columns), kept across schema syncs.
CREATE TABLE nc_models (
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  db_alias TEXT NOT NULL,
  tn TEXT NOT NULL,
  meta TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL,
  PRIMARY KEY (project_id, db_alias, tn)
);

CREATE TABLE nc_api_tokens (
  id TEXT PRIMARY KEY,
  project_id TEXT REFERENCES nc_projects(id) ON DELETE CASCADE,
  description TEXT,
  token_hash TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL DEFAULT 'editor',
  expires_at TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_by TEXT REFERENCES nc_users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE nc_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id TEXT,
  db_alias TEXT,
  op_type TEXT NOT NULL,
  tn TEXT,
  cn TEXT,
  pk TEXT,
  value TEXT,
  prev_value TEXT,
  user_email TEXT,
  ip TEXT,
  description TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX nc_audit_project ON nc_audit(project_id, tn);

CREATE TABLE nc_store (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
