-- An upload's Idempotency-Key belongs to the stored API token that sent it by the token's id ("token#ID"), no longer
-- by its name ("token:NAME"): a revoked token's name is free again, and a new token created with it replayed the
-- revoked one's responses or was refused for reusing its keys. A key kept before is given the id of the token that
-- made its upload (experiment.created_by_token, V27); one whose token was not found keeps its name, which no token's
-- key is told by any more. Portable SQL: runs on H2 and PostgreSQL.
UPDATE upload_idempotency SET principal = 'token#' || CAST((
        SELECT e.created_by_token FROM experiment e WHERE e.id = upload_idempotency.experiment_id) AS VARCHAR(20))
    WHERE principal LIKE 'token:%'
        AND (SELECT e.created_by_token FROM experiment e WHERE e.id = upload_idempotency.experiment_id) IS NOT NULL;
