-- The claim of its experiment a trial was stored in, as V20 records a pair's: an agent's run counts its own failed
-- trials against the plan's max_failures, so that an experiment whose agent is lost after its last trial, or which is
-- resumed with nothing left to run, ends FAILED or COMPLETED by the same count the agent's finish would have made.
ALTER TABLE trial_run ADD COLUMN claim INT;
-- Trials stored before: the last claim of their experiment by their agent, as V20 took a pair's to be.
UPDATE trial_run SET claim = (SELECT MAX(c.claim) FROM experiment_claim c
    WHERE c.experiment_id = trial_run.experiment_id AND c.agent_id = trial_run.agent_id)
WHERE agent_id IS NOT NULL;
