-- 1 when the business named the contact (added, edited, imported, or named in the WhatsApp
-- Business app's address book): the profile name the customer's deliveries come with no longer
-- replaces that name. Contacts named before this column existed are taken as not named.
ALTER TABLE contacts ADD COLUMN named_by_business INTEGER NOT NULL DEFAULT 0;
