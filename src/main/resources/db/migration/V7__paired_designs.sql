-- Paired designs (issue 15): duet and alternating experiments run pairs of trial JVMs; the pair is the unit of
-- replication and is stored whole or not at all. Additive only, so that a database of the release before opens.
-- Portable SQL: runs on H2 and PostgreSQL alike.

-- The design of an engine or command experiment. In a paired design runs_per_variant is the number of pairs planned
-- (as in the runner's plan) and windows_per_pair the windows each variant measures per pair.
ALTER TABLE experiment ADD COLUMN design VARCHAR(12) DEFAULT 'fresh' NOT NULL;
ALTER TABLE experiment ADD COLUMN windows_per_pair INT;
-- Sequential stopping of a paired design: the targets as a JSON array of strings such as "cpu_us_per_req:1.5%" or
-- "user_cpu_us_per_req:settled", and the time budget in seconds; both null when every planned pair runs.
ALTER TABLE experiment ADD COLUMN targets VARCHAR(2000);
ALTER TABLE experiment ADD COLUMN budget_seconds INT;
-- Why a paired experiment stopped before its last planned pair (the stopping rule's reason), else null.
ALTER TABLE experiment ADD COLUMN stop_reason VARCHAR(4000);

-- Where a run lies in a paired design; all null in the fresh design. window_index is null for the failure record
-- of a pair that failed as a whole. start_nanos is the window's start on the host's monotonic clock; skew_nanos
-- its start minus its partner's in a duet (null when alternating).
ALTER TABLE trial_run ADD COLUMN pair_index INT;
ALTER TABLE trial_run ADD COLUMN window_index INT;
ALTER TABLE trial_run ADD COLUMN cpu_set VARCHAR(200);
ALTER TABLE trial_run ADD COLUMN start_nanos BIGINT;
ALTER TABLE trial_run ADD COLUMN skew_nanos BIGINT;
ALTER TABLE trial_run ADD COLUMN started_first BOOLEAN;
CREATE INDEX trial_run_pair ON trial_run (experiment_id, pair_index);

-- One finished pair of a paired design, stored in the same transaction as its runs: a pair without a row here
-- did not finish and runs again, whole, when its experiment resumes.
CREATE TABLE experiment_pair (
    experiment_id     BIGINT        NOT NULL,
    pair_index        INT           NOT NULL,
    status            VARCHAR(12)   NOT NULL,
    without_cpus      VARCHAR(200),
    with_cpus         VARCHAR(200),
    first_variant     VARCHAR(40)   NOT NULL,
    started_at        TIMESTAMP WITH TIME ZONE,
    finished_at       TIMESTAMP WITH TIME ZONE,
    setup_seconds     DOUBLE PRECISION NOT NULL,
    measuring_seconds DOUBLE PRECISION NOT NULL,
    error             VARCHAR(8000),
    PRIMARY KEY (experiment_id, pair_index),
    CONSTRAINT experiment_pair_experiment FOREIGN KEY (experiment_id) REFERENCES experiment (id) ON DELETE CASCADE,
    CONSTRAINT experiment_pair_status CHECK (status IN ('OK', 'FAILED', 'TIMED_OUT', 'CANCELLED'))
);

-- Each look of the sequential stopping rule at a target metric, made after a pair finished: what the page shows
-- and the stop reason refers to.
CREATE TABLE sequential_look (
    experiment_id      BIGINT        NOT NULL,
    metric_key         VARCHAR(100)  NOT NULL,
    look               INT           NOT NULL,
    pairs              INT           NOT NULL,
    -- N, the pairs alpha is spent over (those asked for, or those the budget allows): a resumed rule keeps it
    planned_pairs      INT           NOT NULL,
    target             VARCHAR(200)  NOT NULL,
    percent            DOUBLE PRECISION,
    ci_low_percent     DOUBLE PRECISION,
    ci_high_percent    DOUBLE PRECISION,
    half_width_percent DOUBLE PRECISION,
    t                  DOUBLE PRECISION,
    t_boundary         DOUBLE PRECISION,
    outcome            VARCHAR(20)   NOT NULL,
    description        VARCHAR(2000) NOT NULL,
    PRIMARY KEY (experiment_id, metric_key, look),
    CONSTRAINT sequential_look_experiment FOREIGN KEY (experiment_id) REFERENCES experiment (id) ON DELETE CASCADE
);
