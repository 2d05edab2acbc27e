-- A media share link names the file by its id alone (the signature tells the business), so the
-- files under an id are found without reading the whole table.
CREATE INDEX media_by_id ON media(id);
