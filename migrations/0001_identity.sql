-- Businesses (tenants) with the provider credentials of the owner's profile.
CREATE TABLE businesses (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    phone_number_id TEXT UNIQUE,
    phone_number TEXT NOT NULL DEFAULT '',
    access_token TEXT NOT NULL DEFAULT '',
    verify_token TEXT NOT NULL DEFAULT '',
    waba_id TEXT NOT NULL DEFAULT '',
    app_id TEXT NOT NULL DEFAULT '',
    app_secret TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    username TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    language TEXT NOT NULL DEFAULT 'en',
    google_sub TEXT UNIQUE,
    created_at BIGINT NOT NULL
);
CREATE INDEX users_business ON users(business_id);

-- Refresh tokens are stored hashed; a family is one login's chain of rotations.
CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    family_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    revoked BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);
