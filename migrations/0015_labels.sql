-- Labels: the business's own tags (a name and a colour) that the team puts on conversations.
-- `name_key` is the name lower-cased by the server, so "VIP" and "vip" are one name on both
-- backends.
CREATE TABLE labels (
    id TEXT PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    color TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX labels_name ON labels(business_id, name_key);

-- Which labels each conversation carries. A deleted label leaves every conversation; a
-- conversation's labels follow its customer key when it changes and go when it is deleted.
CREATE TABLE conversation_labels (
    business_id TEXT NOT NULL,
    phone TEXT NOT NULL,
    label_id TEXT NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
    PRIMARY KEY (business_id, phone, label_id),
    FOREIGN KEY (business_id, phone) REFERENCES contacts(business_id, phone)
        ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX conversation_labels_label ON conversation_labels(label_id);
