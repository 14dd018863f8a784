-- Whether an agent's trials count system calls per request, the kernel letting them count the raw_syscalls:sys_enter
-- tracepoint (tracefs readable, perf events permitted): TRUE or FALSE as the agent registered it, NULL where it said
-- nothing (every agent registered before, and agents of earlier releases). Only an agent that said TRUE is given an
-- experiment whose stopping target names syscalls_per_req. Portable SQL: runs on H2 and PostgreSQL alike.
ALTER TABLE agent ADD COLUMN system_calls BOOLEAN;
