-- Why the provider rejected (or paused, or disabled) a template, as its status webhook said;
-- NULL while there is no such reason.
ALTER TABLE templates ADD COLUMN rejection_reason TEXT;
