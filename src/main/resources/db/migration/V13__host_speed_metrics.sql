-- The host's speed while a window of a paired design ran, and the time-based metrics scaled to it: the runner's
-- probe times a cheap system call on each CPU every 10 ms (HostProbe); a window records the median, and CPU per
-- request and requests/s scaled to a host taking 1 us per probe call. Portable SQL: runs on H2 and PostgreSQL alike.

INSERT INTO metric_definition (metric_key, unit, direction, display_order, description) VALUES
    ('cpu_us_per_req_adj', 'us', 'LOWER', 52,
     'CPU time per request scaled to the host''s speed in its window (x 1000 ns / host_probe_ns)'),
    ('user_cpu_us_per_req_adj', 'us', 'LOWER', 54,
     'User CPU time per request scaled to the host''s speed in its window (x 1000 ns / host_probe_ns)'),
    ('sys_cpu_us_per_req_adj', 'us', 'LOWER', 56,
     'System CPU time per request scaled to the host''s speed in its window (x 1000 ns / host_probe_ns)'),
    ('reqs_per_sec_adj', 'req/s', 'HIGHER', 58,
     'Requests per second scaled to the host''s speed in its window (x host_probe_ns / 1000 ns)'),
    ('host_probe_ns', 'ns', 'LOWER', 200,
     'The host''s speed in the window: median CPU time of one system call of the runner''s probe, every CPU');
