-- A customer may be known by a business-scoped user id (BSUID) and a username as well as, or
-- instead of, a phone number. `contacts.phone` holds the customer key (the phone digits, or the
-- BSUID when the phone is withheld); `user_id` keeps the BSUID of a phone-keyed customer.
ALTER TABLE contacts ADD COLUMN user_id TEXT;
ALTER TABLE contacts ADD COLUMN username TEXT;
CREATE INDEX contacts_user_id ON contacts(business_id, user_id);
