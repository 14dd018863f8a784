-- The upload an uploaded side was compared with when it came in (its base: the latest upload of the same benchmark
-- at the base commit, or on the base branch), kept so that the upload's page and API show the comparison the CI
-- gate saw, not only the answer the upload got. Null for experiments that had no base, and for uploads stored
-- before this column; set to null if the base is deleted. Additive only. Portable SQL: runs on H2 and PostgreSQL.
ALTER TABLE experiment ADD COLUMN base_experiment_id BIGINT;
ALTER TABLE experiment ADD CONSTRAINT experiment_base FOREIGN KEY (base_experiment_id) REFERENCES experiment (id)
    ON DELETE SET NULL;
