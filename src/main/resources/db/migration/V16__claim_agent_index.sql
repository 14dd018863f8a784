-- A claim's start is never before the end of the agent's last claim, so each claim looks that end up by agent;
-- PostgreSQL does not index a foreign key's referencing column by itself.
CREATE INDEX experiment_claim_by_agent ON experiment_claim (agent_id, ended_at);
