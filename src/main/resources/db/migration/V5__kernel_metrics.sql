-- Kernel work per request (issue 16): system calls counted with the raw_syscalls:sys_enter tracepoint where perf
-- events are allowed, and page faults from getrusage; both over the trial's measured window, every thread but the
-- JIT compiler threads. Portable SQL: runs on H2 and PostgreSQL alike.

INSERT INTO metric_definition (metric_key, unit, direction, display_order, description) VALUES
    ('syscalls_per_req', 'count', 'LOWER', 72,
     'System calls per request (whole process less the JIT compiler threads; counted where perf events are allowed)'),
    ('page_faults_per_req', 'count', 'LOWER', 74,
     'Page faults per request, minor + major (whole process less the JIT compiler threads)');
