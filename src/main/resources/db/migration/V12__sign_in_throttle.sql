-- Failed password sign-ins, counted in the database so that every service instance on it sees the same count and a
-- restart forgets nothing (SignInThrottle). One row per throttled key: 'user:<lower-cased name>' or
-- 'address:<client address>'. A success deletes the row; rows whose last failure is old are deleted as new failures
-- come, and the oldest beyond a cap, so the table stays small. Additive only. Portable SQL: runs on H2 and
-- PostgreSQL alike.
CREATE TABLE sign_in_failure (
    throttle_key  VARCHAR(300) NOT NULL PRIMARY KEY,
    -- failures in a row since the last success
    failures      INT          NOT NULL,
    last_failure  TIMESTAMP WITH TIME ZONE NOT NULL,
    -- whether the lock this row reached has been logged (by whichever instance saw it first)
    lock_logged   BOOLEAN      DEFAULT FALSE NOT NULL,
    CONSTRAINT sign_in_failure_failures CHECK (failures > 0)
);
CREATE INDEX sign_in_failure_last_failure ON sign_in_failure (last_failure);
