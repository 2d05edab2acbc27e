-- The node sending a bulk job holds a lease on it and keeps renewing it while it sends; another
-- node (or this one after a restart) takes the job over only once the lease has run out.
ALTER TABLE send_jobs ADD COLUMN lease_owner TEXT NOT NULL DEFAULT '';
ALTER TABLE send_jobs ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
