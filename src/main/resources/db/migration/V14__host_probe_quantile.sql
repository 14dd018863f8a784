-- From this version a window's host_probe_ns is the tenth percentile of the probe's samples inside it, not their
-- median (HostProbe's javadoc says why). Windows stored before keep their figure; only the description changes.
UPDATE metric_definition
   SET description = 'The host''s speed in the window: tenth percentile of the CPU time of one system call of the '
       || 'runner''s probe, every CPU'
 WHERE metric_key = 'host_probe_ns';
