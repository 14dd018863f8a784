-- From this version a window's host_probe_ns is the 25th percentile of the CPU time of 1,000 steps of the runner's
-- probe loop, and the system call's tenth percentile (the figure until now) is recorded beside it as
-- host_probe_syscall_ns (HostProbe's javadoc says why). Windows stored before keep their figures.
UPDATE metric_definition
   SET description = 'The host''s speed in the window: 25th percentile of the CPU time of 1,000 steps of the '
       || 'runner''s probe loop, every CPU (before 12-02 afternoon: of one system call of the probe)'
 WHERE metric_key = 'host_probe_ns';

INSERT INTO metric_definition (metric_key, unit, direction, display_order, description) VALUES
    ('host_probe_syscall_ns', 'ns', 'LOWER', 201,
     'Tenth percentile of the CPU time of one system call of the runner''s probe in the window, every CPU '
     || '(recorded beside host_probe_ns, not scaled by)');
