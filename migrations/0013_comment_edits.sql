-- An edited comment keeps its creation time and records when it was last edited (null: never).
ALTER TABLE nc_comments ADD COLUMN updated_at TEXT;
