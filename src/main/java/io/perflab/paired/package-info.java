/**
 * Paired designs (duet, alternating) on the service's side of the runner: the windows of stored results as the
 * statistics take them ({@link io.perflab.paired.PairedSamples}), and the sequential stopping rule that the runner
 * asks after each pair ({@link io.perflab.paired.SequentialStopping}, on {@link io.perflab.stats.SequentialPlan}).
 * The command line uses both today; the experiment scheduler can drive the runner with the same rule.
 */
package io.perflab.paired;
