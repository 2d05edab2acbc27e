-- The business's message templates as the provider last reported them.
CREATE TABLE templates (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    language TEXT NOT NULL,
    status TEXT NOT NULL,
    category TEXT NOT NULL DEFAULT '',
    components TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, id)
);
CREATE INDEX templates_name ON templates(business_id, name, language);

-- Bulk template sends: the job and one row per recipient, so a restart resumes where it stopped.
CREATE TABLE send_jobs (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    template_name TEXT NOT NULL,
    language_code TEXT NOT NULL,
    payload TEXT NOT NULL,
    sender_name TEXT NOT NULL,
    total BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    finished_at BIGINT,
    PRIMARY KEY (business_id, id)
);

CREATE TABLE send_job_recipients (
    business_id TEXT NOT NULL,
    job_id TEXT NOT NULL,
    position BIGINT NOT NULL,
    phone TEXT NOT NULL,
    status TEXT NOT NULL,
    message_id TEXT,
    error TEXT,
    PRIMARY KEY (business_id, job_id, position)
);
CREATE INDEX send_job_pending ON send_job_recipients(business_id, job_id, status, position);
