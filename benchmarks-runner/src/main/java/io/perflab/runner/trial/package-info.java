/**
 * One trial: its arguments ({@link io.perflab.runner.trial.TrialSpec}), the forked JVM's entry point
 * ({@link io.perflab.runner.trial.TrialMain}), the result line it prints
 * ({@link io.perflab.runner.trial.TrialProtocol}), the result the runner records
 * ({@link io.perflab.runner.trial.TrialResult}) with DESIGN's metric keys
 * ({@link io.perflab.runner.trial.MetricKeys}) and the environment it ran in
 * ({@link io.perflab.runner.trial.HostEnvironment}).
 */
package io.perflab.runner.trial;
