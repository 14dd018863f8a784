-- What an upload said besides its samples, shown on the experiment page and in the report. Additive only.
-- Portable SQL: runs on H2 and PostgreSQL alike.

-- The upload's warnings for people (a debug build, runs that exited non-zero, entries left out), as a JSON array
-- of strings; null when there were none.
ALTER TABLE experiment ADD COLUMN upload_warnings VARCHAR(16000);

-- The settings every sample of a side ran with, as the benchmark printed them (rpc-bench's mode, client threads,
-- engine options…), as a JSON object of strings; null when the format prints none.
ALTER TABLE variant ADD COLUMN configuration VARCHAR(4000);
