-- Web Push subscriptions: one row per browser (its push service endpoint), owned by the user who
-- last registered it there. Clients re-register at least every 7 days; `updated_at` records it.
CREATE TABLE push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    -- The browser's P-256 public key and auth secret (base64url, no padding).
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_business ON push_subscriptions(business_id);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id, updated_at);
