-- Reports: which team member sent an outgoing message (NULL for automated replies, bulk sends,
-- messages sent from the WhatsApp Business app, and messages stored before this column), and a
-- business-wide index on message times for range aggregations.
ALTER TABLE messages ADD COLUMN sent_by TEXT;
CREATE INDEX messages_business_time ON messages(business_id, sent_at);
