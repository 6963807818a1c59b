-- A refresh token replaced by rotation names its successor, so a copy used again (a successor exists)
-- is told from a token whose session was ended (signed out, password changed): telling them apart by
-- creation times took a token created in the same millisecond for a successor. Tokens revoked before
-- this change are marked as the times said then.
ALTER TABLE nc_refresh_tokens ADD COLUMN replaced_by TEXT;
UPDATE nc_refresh_tokens SET replaced_by = 'earlier'
WHERE revoked_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM nc_refresh_tokens n WHERE n.family_id = nc_refresh_tokens.family_id AND n.id <> nc_refresh_tokens.id AND n.created_at >= nc_refresh_tokens.created_at);
