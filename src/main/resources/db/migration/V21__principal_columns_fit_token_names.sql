-- Who uploaded or queued an experiment, and whose idempotency key a kept response is under, are stored by principal
-- name: a user's name (at most 100 characters) or "token:" and a token's name (at most 100 characters), so up to 106
-- characters. The columns held 100, and every upload or experiment of a token named with more than 94 characters
-- failed with a 500. Widening a VARCHAR keeps every row. Portable SQL: runs on H2 and PostgreSQL alike.
ALTER TABLE experiment ALTER COLUMN created_by SET DATA TYPE VARCHAR(200);
ALTER TABLE upload_idempotency ALTER COLUMN principal SET DATA TYPE VARCHAR(200);
