-- The stored API token that started an experiment (queued it, re-ran it or uploaded it), by its id (null: started by
-- a user or the bootstrap token). Only that token, or an administrator, cancels, resumes and re-runs it: it was told
-- by the token's name (created_by, "token:NAME"), and a revoked token's name is free again, so a new token created
-- with that name controlled the revoked token's experiments. The name stays in created_by, for people.
-- Experiments stored before are given the token of that name that was live when they were created, as V25 gave
-- agents theirs: created before, and not revoked before (the newest such). An experiment whose token cannot be found
-- gets none, and only an administrator controls it. Portable SQL: runs on H2 and PostgreSQL.
ALTER TABLE experiment ADD COLUMN created_by_token BIGINT;
UPDATE experiment SET created_by_token = (
        SELECT MAX(t.id) FROM api_token t
        WHERE 'token:' || t.name = experiment.created_by AND t.created_at <= experiment.created_at
            AND (t.revoked_at IS NULL OR t.revoked_at >= experiment.created_at))
    WHERE created_by LIKE 'token:%';
