-- One row per conversation: a business's customer, with what the list shows.
CREATE TABLE contacts (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    phone TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    last_message_at BIGINT,
    last_incoming_at BIGINT,
    last_text TEXT,
    last_caption TEXT,
    unread_count BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, phone)
);
CREATE INDEX contacts_activity ON contacts(business_id, last_message_at);

-- Messages in both directions; the provider's id is the key, so redeliveries insert nothing.
CREATE TABLE messages (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    message_id TEXT NOT NULL,
    phone TEXT NOT NULL,
    direction TEXT NOT NULL,
    kind TEXT NOT NULL,
    content TEXT NOT NULL,
    status TEXT NOT NULL,
    is_read BIGINT NOT NULL DEFAULT 0,
    sender_name TEXT NOT NULL DEFAULT '',
    sent_at BIGINT NOT NULL,
    error TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, message_id)
);
CREATE INDEX messages_conversation ON messages(business_id, phone, sent_at);

-- Receipts that arrived before their message; applied when it appears, pruned after a while.
CREATE TABLE early_statuses (
    business_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, message_id, status)
);

-- The event log clients resume from, and each business's last sequence number.
CREATE TABLE events (
    business_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    channels TEXT NOT NULL,
    name TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, seq)
);
CREATE INDEX events_age ON events(created_at);

CREATE TABLE event_counters (
    business_id TEXT PRIMARY KEY,
    seq BIGINT NOT NULL
);
