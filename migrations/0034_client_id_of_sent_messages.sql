-- Only the messages the team sends carry the client's id; a customer's message left a null
-- entry in this unique index, one more page written in every batch of them. The lookups by
-- client id (`client_id = $n`) imply the condition, so they keep using it.
DROP INDEX messages_client_id;
CREATE UNIQUE INDEX messages_client_id ON messages(business_id, client_id)
    WHERE client_id IS NOT NULL;
