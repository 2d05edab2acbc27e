-- Customers' edits, deletions and reactions that came before the message they change (a
-- webhook's deliveries may arrive out of order): kept for an hour and applied once the message
-- is stored.
CREATE TABLE early_amendments (
    id TEXT PRIMARY KEY,
    business_id TEXT NOT NULL,
    phone TEXT NOT NULL,
    original_id TEXT NOT NULL,
    amendment TEXT NOT NULL,
    received_at BIGINT NOT NULL
);
CREATE INDEX early_amendments_received ON early_amendments(received_at);
