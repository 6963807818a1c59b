-- Who may create projects and connect databases besides the Super Admin: a right the Super Admin
-- grants per user (Users page), off by default.
ALTER TABLE nc_users ADD COLUMN may_create_projects INTEGER NOT NULL DEFAULT 0;

-- API tokens made with the master key keep their own role; a token made by a user acts with at
-- most that user's current role in the token's project. Tokens without a maker were made with
-- the master key before this column existed.
ALTER TABLE nc_api_tokens ADD COLUMN by_master INTEGER NOT NULL DEFAULT 0;
UPDATE nc_api_tokens SET by_master = 1 WHERE created_by IS NULL;
