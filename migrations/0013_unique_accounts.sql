-- One WhatsApp Business Account and one phone number id belong to one business: template
-- decisions are routed by the account, messages by the number. Where two businesses named the
-- same account, the one that named it first keeps it; blank ids are "none" and never collide.
UPDATE businesses SET waba_id = '' WHERE waba_id <> '' AND EXISTS (
    SELECT 1 FROM businesses AS earlier
    WHERE earlier.waba_id = businesses.waba_id
      AND (earlier.created_at < businesses.created_at
           OR (earlier.created_at = businesses.created_at AND earlier.id < businesses.id)));
CREATE UNIQUE INDEX businesses_waba_id_unique ON businesses(waba_id) WHERE waba_id <> '';
-- The number id is unique already (a column constraint); blank means none, as NULL.
UPDATE businesses SET phone_number_id = NULL WHERE phone_number_id = '';
