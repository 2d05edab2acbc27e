-- Failed sign-ins per account and per client address (login throttling), in the database so
-- every node counts the same failures and a restart forgets none.
CREATE TABLE login_failures (
    key TEXT PRIMARY KEY,
    failures BIGINT NOT NULL,
    window_started BIGINT NOT NULL,
    locked_until BIGINT NOT NULL
);
