-- A live token's name, unique; NULL once the token is revoked (H2 and PostgreSQL both allow any number of NULLs in a
-- unique column). What a token does is recorded under its name, so two live tokens of one name would act as each
-- other; ApiTokens checks the name before it inserts, and this constraint holds when two instances (or two requests)
-- create the same name at once. Tokens that already shared a live name keep working; the newest holds the name.
ALTER TABLE api_token ADD COLUMN live_name VARCHAR(100);
UPDATE api_token SET live_name = name
    WHERE id IN (SELECT MAX(id) FROM api_token WHERE revoked_at IS NULL GROUP BY name);
ALTER TABLE api_token ADD CONSTRAINT api_token_live_name_unique UNIQUE (live_name);
