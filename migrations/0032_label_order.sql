-- A label's conversations in the list's order: each carries its conversation's list time
-- (COALESCE(last_message_at, created_at)), moved by every write that moves that time, so a
-- label's page reads its first conversations from this index and checks only those, instead of
-- finding every conversation that carries the label and sorting them all.
ALTER TABLE conversation_labels ADD COLUMN list_at BIGINT NOT NULL DEFAULT 0;
UPDATE conversation_labels SET list_at = COALESCE((SELECT COALESCE(c.last_message_at, c.created_at)
    FROM contacts c WHERE c.business_id = conversation_labels.business_id
    AND c.phone = conversation_labels.phone), 0);
CREATE INDEX conversation_labels_order
    ON conversation_labels(business_id, label_id, list_at DESC, phone);
-- The order index starts with what this one held.
DROP INDEX conversation_labels_by_label;
