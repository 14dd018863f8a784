-- Instructions and CPU cycles per request, counted with the CPU's hardware counters where the host gives them (most
-- virtual machines do not); over the trial's measured window, every thread but the JIT compiler threads, user and
-- kernel mode. Portable SQL: runs on H2 and PostgreSQL alike.

INSERT INTO metric_definition (metric_key, unit, direction, display_order, description) VALUES
    ('instructions_per_req', 'count', 'LOWER', 76,
     'Instructions per request, user and kernel mode (whole process less the JIT compiler threads; counted where the CPU''s hardware counters are available)'),
    ('cycles_per_req', 'count', 'LOWER', 78,
     'CPU cycles per request (whole process less the JIT compiler threads; counted where the CPU''s hardware counters are available)');
