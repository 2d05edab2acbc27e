-- The id the client gave an outgoing message: retries with the same id never send twice.
ALTER TABLE messages ADD COLUMN client_id TEXT;
CREATE UNIQUE INDEX messages_client_id ON messages(business_id, client_id);

-- Outgoing messages not yet accepted by the provider; written with the message, deleted once
-- the provider answers for good. `next_attempt_at` doubles as the lease of an attempt in flight.
CREATE TABLE outbox (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    client_id TEXT NOT NULL,
    phone TEXT NOT NULL,
    payload TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, client_id)
);
CREATE INDEX outbox_due ON outbox(next_attempt_at);

-- Files of a business: uploads it sent and inbound media fetched from the provider.
CREATE TABLE media (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    size BIGINT NOT NULL,
    filename TEXT NOT NULL DEFAULT '',
    path TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, id)
);
