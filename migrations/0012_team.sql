-- Team workflow: each conversation's status (open, pending, resolved, snoozed until a time) and
-- the agent it is assigned to; the business's assignment settings.
ALTER TABLE contacts ADD COLUMN status TEXT NOT NULL DEFAULT 'open';
ALTER TABLE contacts ADD COLUMN snoozed_until BIGINT;
ALTER TABLE contacts ADD COLUMN assignee_id TEXT;
ALTER TABLE contacts ADD COLUMN assigned_at BIGINT;
-- The snooze sweep reads only the snoozed rows that are due.
CREATE INDEX contacts_snoozed ON contacts(snoozed_until) WHERE status = 'snoozed';
CREATE INDEX contacts_assignee ON contacts(business_id, assignee_id);

ALTER TABLE businesses ADD COLUMN assignment_mode TEXT NOT NULL DEFAULT 'manual';
ALTER TABLE businesses ADD COLUMN claim_timeout_minutes BIGINT NOT NULL DEFAULT 0;
