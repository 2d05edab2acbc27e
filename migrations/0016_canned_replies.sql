-- Canned replies: ready texts that agents insert into the composer by typing `/shortcut`.
-- `shortcut_key` is the shortcut lower-cased: unique per business, so `/Hi` and `/hi` are one.
CREATE TABLE canned_replies (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    shortcut TEXT NOT NULL,
    shortcut_key TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, id)
);
CREATE UNIQUE INDEX canned_replies_shortcut ON canned_replies(business_id, shortcut_key);
