-- An upload's samples, packed (issue 19): one row per experiment, side, metric and block of up to 4,096 values,
-- instead of one sample row per run and metric. An upload arrives whole, in one transaction, and never changes, so
-- nothing needs its values one by one; a 600-sample upload of 12 metrics × 50 runs now writes 12 rows instead of
-- 600 sample rows and 50 trial_run rows. Its runs have no trial_run rows: run i of a side is the position of the
-- side's i-th values. Trials of engine and command experiments, which arrive one at a time, keep their trial_run
-- rows and one sample row per run and metric.
-- Additive only: uploads stored before keep their rows and read as before. Portable SQL: H2 and PostgreSQL.
CREATE TABLE sample_series (
    experiment_id BIGINT          NOT NULL,
    variant       VARCHAR(40)     NOT NULL,
    metric_key    VARCHAR(100)    NOT NULL,
    block         INT             NOT NULL,
    -- the trial_run ordinal the block's first value belongs to; value i belongs to first_ordinal + i
    first_ordinal INT             NOT NULL,
    value_count   INT             NOT NULL,
    -- the values as Java writes doubles (Double.toString), comma-separated: exact when read back, and at most
    -- 4,096 × 25 characters
    sample_values VARCHAR(110000) NOT NULL,
    PRIMARY KEY (experiment_id, variant, metric_key, block),
    CONSTRAINT sample_series_experiment FOREIGN KEY (experiment_id) REFERENCES experiment (id) ON DELETE CASCADE,
    CONSTRAINT sample_series_count CHECK (value_count BETWEEN 1 AND 4096)
);
