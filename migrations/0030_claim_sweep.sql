-- The claim sweep (every second on every node) looks for open, assigned conversations whose
-- customer has waited past their business's claim timeout. Without an index of just those it
-- read every conversation of every business each time, holding the write lock on SQLite while
-- it did; this one holds only the open, assigned conversations.
CREATE INDEX contacts_claimed ON contacts(business_id) WHERE assignee_id IS NOT NULL AND status = 'open';
