-- What an experiment's row in a list shows of its results (ResultsDigest: the headline verdicts, how many metrics
-- were compared and regressed), as JSON, for the data version and digest form it was computed for. Lists read it
-- instead of comparing every metric of every row again.
CREATE TABLE results_digest (
    experiment_id BIGINT       NOT NULL PRIMARY KEY,
    data_version  INT          NOT NULL,
    digest_format INT          NOT NULL,
    digest        VARCHAR(16000) NOT NULL,
    CONSTRAINT results_digest_experiment FOREIGN KEY (experiment_id) REFERENCES experiment (id) ON DELETE CASCADE
);
