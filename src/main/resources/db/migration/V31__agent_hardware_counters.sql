-- Whether an agent's trials count instructions and cycles per request, the kernel granting its host the CPU's
-- hardware counters (most virtual machines do not): TRUE or FALSE as the agent registered it, NULL where it said
-- nothing (every agent registered before, and agents of earlier releases). Only an agent that said TRUE is given an
-- experiment whose stopping target names instructions_per_req or cycles_per_req. Portable SQL: runs on H2 and
-- PostgreSQL alike.
ALTER TABLE agent ADD COLUMN hardware_counters BOOLEAN;
