-- Open invite links, one row per link: inviting a person who has not joined yet to a second project
-- mails a second link, and the first one keeps working until it expires (a resend replaces them all).
-- The latest link is also kept on the user (nc_users.invite_token_hash), as before.
CREATE TABLE nc_invite_links (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX nc_invite_links_user ON nc_invite_links (user_id);
