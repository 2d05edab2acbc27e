-- The chat list's filters read their pages from indexes in the list's order, as the unfiltered
-- list does (contacts_list_order): by status (every page asks for one, `open` unless told
-- otherwise) and by assignee (`unassigned` is the NULL entries). A label's conversations are
-- found through conversation_labels_by_label and then ordered.
CREATE INDEX contacts_status_order
    ON contacts(business_id, status, (COALESCE(last_message_at, created_at)) DESC, phone);
CREATE INDEX contacts_assignee_order
    ON contacts(business_id, assignee_id, (COALESCE(last_message_at, created_at)) DESC, phone);
-- The assignee order index starts with what this one held.
DROP INDEX contacts_assignee;
-- A label's conversations of a business, so a label filter reads only them (the primary key
-- starts with the phone after the business).
CREATE INDEX conversation_labels_by_label ON conversation_labels(business_id, label_id, phone);
