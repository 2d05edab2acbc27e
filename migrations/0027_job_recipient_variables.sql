-- A bulk send's per-recipient template variables (a JSON object of column name to value), read
-- from the recipient file; NULL when the recipient takes the form's values.
ALTER TABLE send_job_recipients ADD COLUMN variables TEXT;
