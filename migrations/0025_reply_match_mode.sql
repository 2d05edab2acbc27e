-- How an automated reply's trigger matches a customer's text: `exact` (the whole text),
-- `contains` (anywhere, as whole words) or `starts_with` (its first words).
ALTER TABLE automated_replies ADD COLUMN match_mode TEXT NOT NULL DEFAULT 'exact';
