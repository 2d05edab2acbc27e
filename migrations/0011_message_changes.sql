-- When a customer edited a message, or deleted it for everyone (ms; NULL when never).
ALTER TABLE messages ADD COLUMN edited_at BIGINT NULL;
ALTER TABLE messages ADD COLUMN revoked_at BIGINT NULL;
