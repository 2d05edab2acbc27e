-- Each business's unread total (the sum of its contacts' unread counts), kept by the writes that
-- change a contact's count, so a notification never sums over every conversation.
CREATE TABLE unread_totals (
    business_id TEXT PRIMARY KEY REFERENCES businesses(id) ON DELETE CASCADE,
    total BIGINT NOT NULL
);
INSERT INTO unread_totals (business_id, total)
SELECT business_id, SUM(unread_count) FROM contacts GROUP BY business_id;
