-- A business's search documents newest first: a search first reads the newest documents in its
-- scope, so a very common word finds its newest matches without reading every match.
CREATE INDEX search_documents_time ON search_documents(business_id, at);
