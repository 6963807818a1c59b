-- Data rights per table and role (Roles Management) and per-role visibility of tree objects
-- (Meta Management, disableOrEnableModel). The two are kept apart: hiding a table from a role's
-- tree does not change what that role may read or write through the APIs.
CREATE TABLE nc_acl (
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  db_alias TEXT NOT NULL,
  tn TEXT NOT NULL,
  role TEXT NOT NULL,
  -- JSON: { read, create, update: true | false | [column SQL names], delete: boolean, where: string | null }
  rule TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (project_id, db_alias, tn, role)
);

-- One row per object hidden from one role's tree; no row = visible.
CREATE TABLE nc_disabled_models (
  project_id TEXT NOT NULL REFERENCES nc_projects(id) ON DELETE CASCADE,
  db_alias TEXT NOT NULL,
  type TEXT NOT NULL,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (project_id, db_alias, type, name, role)
);
