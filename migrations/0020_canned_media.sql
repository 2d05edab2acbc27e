-- Canned replies may carry a file: the id of a row of `media` of the same business, or NULL.
-- A file a reply stops naming stays in `media`, since messages already sent may show it.
ALTER TABLE canned_replies ADD COLUMN media_id TEXT;
