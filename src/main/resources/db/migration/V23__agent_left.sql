-- An agent that was stopped tells the service it leaves (POST /api/v1/agents/{id}/leave): its status becomes LEFT,
-- told apart from LOST, whose heartbeat timed out. Both are final for that registration; the host registers again.
-- The check of V10 is replaced by one that also allows LEFT: every row it held still holds. Portable SQL: runs on
-- H2 and PostgreSQL alike.
ALTER TABLE agent DROP CONSTRAINT agent_status;
ALTER TABLE agent ADD CONSTRAINT agent_status CHECK (status IN ('IDLE', 'RUNNING', 'LOST', 'LEFT'));
