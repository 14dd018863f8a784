-- The response kept under an Idempotency-Key is the upload's whole comparison, about 1 KB a metric: an upload of
-- 3,000 metrics (the limits allow 10,000) answers with some 3.3 MB, which VARCHAR(1000000) could not hold, so every
-- upload of that size sent with a key (perflab upload always sends one) failed with a 500 and stored nothing.
-- TEXT is unbounded on both databases (a CLOB on H2). Portable SQL: runs on H2 and PostgreSQL alike.
ALTER TABLE upload_idempotency ALTER COLUMN response SET DATA TYPE TEXT;
