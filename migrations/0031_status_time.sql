-- When a conversation's status last changed (Unix ms; NULL before this column existed). A
-- customer's message reopens a resolved or snoozed conversation only when it was stored after
-- that change, however late the reopening runs.
ALTER TABLE contacts ADD COLUMN status_at BIGINT;
