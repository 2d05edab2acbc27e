-- Full-history search: one document per searchable item (a message's text, caption and file
-- name, a note, a template as sent; a contact's name and number), with the original text for
-- snippets and the text folded by the server (case, Arabic marks and letter forms, digits), so
-- both backends index the same words. `doc_id` is the message id, or `contact:{key}`.
-- The full-text index over `folded` is the one part the backends do differently; Store::migrate
-- creates it right after the migrations (FTS5 on SQLite, a GIN index on Postgres) and indexes
-- existing messages and contacts once (search_backfills records that it is done).
CREATE TABLE search_documents (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    doc_id TEXT NOT NULL,
    phone TEXT NOT NULL,
    kind TEXT NOT NULL,
    at BIGINT NOT NULL,
    body TEXT NOT NULL,
    folded TEXT NOT NULL,
    PRIMARY KEY (business_id, doc_id)
);
CREATE INDEX search_documents_conversation ON search_documents(business_id, phone, at);

CREATE TABLE search_backfills (
    name TEXT PRIMARY KEY,
    finished_at BIGINT NOT NULL
);
