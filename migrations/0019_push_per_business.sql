-- A push endpoint is kept per business: a second business registering the same endpoint gets its
-- own row, and the first business's row is never moved. Within one business the row follows the
-- user who last registered it there (one browser, several users).
CREATE TABLE push_subscriptions_by_business (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    endpoint TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    -- The browser's P-256 public key and auth secret (base64url, no padding).
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, endpoint)
);
INSERT INTO push_subscriptions_by_business
    (business_id, endpoint, user_id, platform, p256dh, auth, created_at, updated_at)
    SELECT business_id, endpoint, user_id, platform, p256dh, auth, created_at, updated_at
    FROM push_subscriptions;
DROP TABLE push_subscriptions;
ALTER TABLE push_subscriptions_by_business RENAME TO push_subscriptions;
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id, updated_at);
