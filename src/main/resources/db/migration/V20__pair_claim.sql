-- The claim of its experiment a pair was stored in: the pairs of the running claim are the run the stopping rule
-- judges, those of earlier claims what came before it. The agent a pair ran on cannot tell them apart, since an
-- agent keeps its id when it claims the same experiment again; nor can the pair's times, which are the agent's clock.
-- Pairs of the built-in agent without an id have none (no claim is recorded for it).
ALTER TABLE experiment_pair ADD COLUMN claim INT;
-- Pairs stored before: the last claim of their experiment by their agent, as the service took them to be until now.
UPDATE experiment_pair SET claim = (SELECT MAX(c.claim) FROM experiment_claim c
    WHERE c.experiment_id = experiment_pair.experiment_id AND c.agent_id = experiment_pair.agent_id)
WHERE agent_id IS NOT NULL;
