/**
 * A/B experiments: a plan of trials, each in a fresh process, and a runner that reports each trial as it ends.
 *
 * <pre>{@code
 * Workload workload = Workload.DEFAULTS.withWarmup(Warmup.parse("auto:10")).withRun(Duration.ofSeconds(4));
 * ExperimentPlan plan = ExperimentPlan.of(
 *                 EngineVariant.of(Map.of("completion", "monitor"), workload),       // without (baseline)
 *                 EngineVariant.of(Map.of("completion", "notification"), workload),  // with (the change)
 *                 20)
 *         .withOrder(TrialOrder.INTERLEAVED).withSeed(42).withMaxFailures(3);
 * ExperimentRunner runner = new ExperimentRunner(TrialLauncher.ofThisJvm());
 * ExperimentOutcome outcome = runner.run(plan, result -> store.save(id, result));   // one TrialResult per trial
 * // after a crash: runner.run(plan, ordinalsNotYetStored, listener)
 * // from another thread: runner.cancel() kills the running trial's process tree
 * }</pre>
 *
 * <p>A command experiment uses {@link io.perflab.runner.experiment.CommandVariant}s instead; each run is
 * metered with {@code getrusage(RUSAGE_CHILDREN)} deltas, and what it leaves running is killed when it ends (found
 * by the {@code PERFLAB_TRIAL} tag in its processes' environment). {@link io.perflab.runner.experiment.ExperimentJson}
 * writes the experiment file that {@code perflab ab --out} produces.
 */
package io.perflab.runner.experiment;
