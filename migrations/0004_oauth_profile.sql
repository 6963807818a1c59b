-- Sign-in with Google, GitHub and OpenID Connect: linked identities and pending authorisations;
-- profile pictures (an uploaded image or a URL kept per user).
CREATE TABLE nc_user_identities (
  provider TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES nc_users(id) ON DELETE CASCADE,
  email TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (provider, subject)
);
CREATE INDEX nc_user_identities_user ON nc_user_identities(user_id);

-- One row per authorisation started: state and PKCE verifier, used once, short-lived.
CREATE TABLE nc_oauth_states (
  state_hash TEXT PRIMARY KEY,
  provider TEXT NOT NULL,
  code_verifier TEXT NOT NULL,
  nonce TEXT NOT NULL,
  -- set when a signed-in user links a provider to their account
  link_user_id TEXT REFERENCES nc_users(id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);

ALTER TABLE nc_users ADD COLUMN picture_url TEXT;

CREATE TABLE nc_user_pictures (
  user_id TEXT PRIMARY KEY REFERENCES nc_users(id) ON DELETE CASCADE,
  mime TEXT NOT NULL,
  data TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX nc_audit_op_type ON nc_audit(op_type, id);
