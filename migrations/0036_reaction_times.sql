-- Per side, when its reaction on a message last changed and the ids of the reactions applied at
-- that time (JSON: {"customer": {"at": ms, "ids": ["wamid.…"]}, "business": …}; NULL before any
-- reaction): a redelivered reaction, or one older than the one applied, changes nothing.
ALTER TABLE messages ADD COLUMN reacted TEXT;
