-- Keyword-triggered automated replies. `trigger_key` is the trigger lower-cased and trimmed:
-- what inbound text is matched against, and unique per business.
CREATE TABLE automated_replies (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    trigger_text TEXT NOT NULL,
    trigger_key TEXT NOT NULL,
    kind TEXT NOT NULL,
    response_text TEXT NOT NULL DEFAULT '',
    caption TEXT NOT NULL DEFAULT '',
    is_active BIGINT NOT NULL DEFAULT 1,
    is_default BIGINT NOT NULL DEFAULT 0,
    cooldown_hours DOUBLE PRECISION NOT NULL DEFAULT 0,
    -- JSON list of {id, title}.
    quick_reply_buttons TEXT NOT NULL DEFAULT '[]',
    -- A row of `media`, or NULL.
    media_id TEXT,
    media_type TEXT,
    -- JSON of the interactive list, for kind 'interactive'.
    interactive TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, id)
);
CREATE UNIQUE INDEX automated_replies_trigger ON automated_replies(business_id, trigger_key);
-- At most one default reply per business.
CREATE UNIQUE INDEX automated_replies_default ON automated_replies(business_id) WHERE is_default = 1;

-- The steps of a reply's flow, keyed by the button id that opens them.
CREATE TABLE reply_flow_steps (
    business_id TEXT NOT NULL,
    reply_id TEXT NOT NULL,
    trigger_text TEXT NOT NULL,
    position BIGINT NOT NULL,
    response_text TEXT NOT NULL DEFAULT '',
    caption TEXT NOT NULL DEFAULT '',
    quick_reply_buttons TEXT NOT NULL DEFAULT '[]',
    media_id TEXT,
    media_type TEXT,
    PRIMARY KEY (business_id, reply_id, trigger_text),
    FOREIGN KEY (business_id, reply_id) REFERENCES automated_replies(business_id, id) ON DELETE CASCADE
);

-- When each reply last answered each customer: the cooldown's memory.
CREATE TABLE reply_deliveries (
    business_id TEXT NOT NULL,
    reply_id TEXT NOT NULL,
    phone TEXT NOT NULL,
    sent_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, reply_id, phone),
    FOREIGN KEY (business_id, reply_id) REFERENCES automated_replies(business_id, id) ON DELETE CASCADE
);
