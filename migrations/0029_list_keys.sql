-- What the chat list filters and orders by, beside each conversation's key: a page that starts
-- from a label's conversations or a search's keys checks their status and assignee and sorts
-- them from this index alone, one index entry per conversation instead of its key's entry and
-- then its row. Plain columns, so that Postgres may read it index-only too.
CREATE INDEX contacts_list_keys
    ON contacts(business_id, phone, status, assignee_id, last_message_at, created_at);
-- Nothing reads contacts by (business, last message time) since the list's order has its own
-- index (contacts_list_order); every activity update kept this one up to date for nothing.
DROP INDEX contacts_activity;
