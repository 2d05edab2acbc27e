-- Each conversation's latest message time (the customer's, the business's or a team note), kept
-- on its contact: a batch of inbound messages reads it with the contact instead of looking up
-- each conversation's newest message, and a message the business sends takes the time after it
-- there. It may run ahead of the stored messages (a time taken for a send that was not
-- stored), never behind them.
ALTER TABLE contacts ADD COLUMN latest_at BIGINT;
UPDATE contacts SET latest_at = (SELECT MAX(m.sent_at) FROM messages m
    WHERE m.business_id = contacts.business_id AND m.phone = contacts.phone);
