-- The stored API token an agent registered with, by its id (null: registered by a user or the bootstrap token, or
-- the built-in agent of a service). An agent acts only with the token it registered with: it was told by the
-- token's name (registered_by, "token:NAME"), and a revoked token's name is free again, so a new token created with
-- that name acted as the revoked token's agents. The name stays in registered_by, for people.
-- Agents stored before are given the token of that name that was live when they registered: created before, and
-- not revoked before (the newest such, as V18 let the newest of tokens sharing a live name hold it). An agent whose
-- token cannot be found gets none, and only an administrator acts for it. Portable SQL: runs on H2 and PostgreSQL.
ALTER TABLE agent ADD COLUMN registered_by_token BIGINT;
UPDATE agent SET registered_by_token = (
        SELECT MAX(t.id) FROM api_token t
        WHERE 'token:' || t.name = agent.registered_by AND t.created_at <= agent.registered_at
            AND (t.revoked_at IS NULL OR t.revoked_at >= agent.registered_at))
    WHERE built_in = FALSE AND registered_by LIKE 'token:%';
