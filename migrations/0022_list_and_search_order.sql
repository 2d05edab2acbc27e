-- The orders large inboxes are read in, so a page reads only its own rows:
-- the chat list, newest activity first (as contacts_page sorts it) ...
CREATE INDEX contacts_list_order
    ON contacts(business_id, (COALESCE(last_message_at, created_at)) DESC, phone);
-- ... and a business's search documents newest first: a search first reads the newest documents
-- in its scope, so a very common word finds its newest matches without reading every match.
CREATE INDEX search_documents_time ON search_documents(business_id, at);
