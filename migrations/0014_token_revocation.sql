-- Access tokens carry the user's token version; raising it (a password change, signing out
-- everywhere) refuses every token issued before, on the next request.
ALTER TABLE users ADD COLUMN token_version BIGINT NOT NULL DEFAULT 0;
