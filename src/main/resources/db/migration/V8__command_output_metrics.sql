-- Command experiments that read their metrics from what the commands print (issue 18). Additive only.
-- Portable SQL: runs on H2 and PostgreSQL alike.

-- A command variant's output format (an upload format: rpcbench, jmh, gobench…; null when its output is not read),
-- working directory (null: the server's) and environment variables (a JSON object of strings; null when none).
ALTER TABLE variant ADD COLUMN metrics_format VARCHAR(40);
ALTER TABLE variant ADD COLUMN directory VARCHAR(1000);
ALTER TABLE variant ADD COLUMN environment VARCHAR(16000);

-- Every value a command run printed for each metric it read (JMH's iterations, Go's -count runs), as a JSON object of
-- metric key to array of numbers; the run's sample of a metric is their mean. Null for other runs.
ALTER TABLE trial_run ADD COLUMN output_values VARCHAR(1000000);
