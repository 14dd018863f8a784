package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ExperimentRunnerTests {

    private static final TrialLauncher FAKE = TrialLauncher.mainClass(System.getProperty("java.class.path"),
            FakeTrial.class.getName());
    /** Small heap, no pre-touch: the fake trial only starts and prints. */
    private static final List<String> QUICK_JVM = List.of("-Xmx64m", "-XX:TieredStopAtLevel=1", "-Xshare:auto");

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final List<TrialResult> heard = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    @Test
    void runsEachTrialInItsOwnJvmInPlanOrderAndTellsTheListener() {
        ExperimentPlan plan = ExperimentPlan.of(engine("ok"), engine("ok"), 2).withJvmArgs(QUICK_JVM);

        ExperimentOutcome outcome = new ExperimentRunner(FAKE).run(plan, heard::add);

        assertThat(outcome.stop()).isEqualTo(ExperimentOutcome.Stop.COMPLETED);
        assertThat(heard).isEqualTo(outcome.results());
        assertThat(heard).extracting(TrialResult::variant).containsExactly("without", "with", "without", "with");
        assertThat(heard).extracting(TrialResult::ordinal).containsExactly(0, 1, 2, 3);
        assertThat(heard).allMatch(TrialResult::ok);
        assertThat(heard).extracting(TrialResult::pid).doesNotHaveDuplicates();
        assertThat(heard.get(0).environment()).containsEntry("pid", Long.toString(heard.get(0).pid()));
        assertThat(heard.get(1).environment().get("command")).contains("-Xmx64m", "\"completion\":\"notification\"");
        assertThat(heard.get(0).metrics()).containsKey(MetricKeys.REQS_PER_SEC);
    }

    @Test
    void aVariantWhoseJvmCannotStartFailsWithoutStoppingTheOthers() {
        ExperimentPlan plan = ExperimentPlan.of(engine("ok"),
                engine("ok").withJvmArgs(List.of("-XX:+NoSuchFlagInThisJvm")), 2).withJvmArgs(QUICK_JVM);

        ExperimentOutcome outcome = new ExperimentRunner(FAKE).run(plan, heard::add);

        assertThat(outcome.stop()).isEqualTo(ExperimentOutcome.Stop.COMPLETED);
        assertThat(heard).extracting(TrialResult::status)
                .containsExactly(TrialStatus.OK, TrialStatus.FAILED, TrialStatus.OK, TrialStatus.FAILED);
        assertThat(heard.get(1).error()).contains("exited with status 1 without a result")
                .contains("NoSuchFlagInThisJvm");
    }

    @Test
    void aCrashOrAMissingResultIsAFailureWithTheErrorOutput() {
        ExperimentPlan plan = ExperimentPlan.of(engine("silent"), engine("crash"), 2).withJvmArgs(QUICK_JVM)
                .withMaxFailures(1);

        ExperimentOutcome outcome = new ExperimentRunner(FAKE).run(plan, heard::add);

        assertThat(outcome.stop()).isEqualTo(ExperimentOutcome.Stop.TOO_MANY_FAILURES);
        assertThat(outcome.message()).startsWith("stopped after 2 failed trials (more than --max-failures 1)");
        assertThat(heard).hasSize(2);
        assertThat(heard.get(0).error()).startsWith("trial JVM exited with status 0 without a result")
                .contains("some log line");
        assertThat(heard.get(1).error()).startsWith("trial JVM exited with status 3 without a result")
                .contains("the engine fell over");
    }

    @Test
    void aTrialOverItsTimeoutIsKilledAndRecorded() {
        ExperimentPlan plan = ExperimentPlan.of(engine("hang"), engine("ok"), 2).withJvmArgs(QUICK_JVM)
                .withTrialTimeout(Duration.ofMillis(1500)).withMaxFailures(0);

        ExperimentOutcome outcome = new ExperimentRunner(FAKE).run(plan, heard::add);

        assertThat(outcome.stop()).isEqualTo(ExperimentOutcome.Stop.TOO_MANY_FAILURES);
        TrialResult hung = heard.get(0);
        assertThat(hung.status()).isEqualTo(TrialStatus.TIMED_OUT);
        assertThat(hung.error()).startsWith("killed after the trial timeout of 1.5 s");
        assertThat(ProcessHandle.of(hung.pid()).map(ProcessHandle::isAlive)).isNotEqualTo(java.util.Optional.of(true));
    }

    @Test
    void runsOnlyTheRequestedOrdinals() {
        ExperimentPlan plan = ExperimentPlan.of(command("true"), command("true"), 3);

        ExperimentOutcome outcome = new ExperimentRunner(FAKE).run(plan, List.of(4, 1, 5), heard::add);

        assertThat(outcome.stop()).isEqualTo(ExperimentOutcome.Stop.COMPLETED);
        assertThat(heard).extracting(TrialResult::ordinal).containsExactly(1, 4, 5);
        assertThat(heard).extracting(TrialResult::variant).containsExactly("with", "without", "with");
        assertThatThrownBy(() -> new ExperimentRunner(FAKE).run(plan, List.of(6), heard::add))
                .hasMessageContaining("trial 6 is not in the plan (0..5)");
    }

    @Test
    void commandTrialsAreMeteredWithChildrenUsage() {
        String burn = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done";
        ExperimentPlan plan = ExperimentPlan.of(command("exit 0"), command(burn), 2);

        new ExperimentRunner(FAKE).run(plan, heard::add);

        assertThat(heard).allMatch(TrialResult::ok);
        assertThat(heard.get(0).metrics()).containsOnlyKeys(MetricKeys.COMMAND);
        double idle = heard.get(0).metrics().get(MetricKeys.CPU_MS);
        double busy = heard.get(1).metrics().get(MetricKeys.USER_CPU_MS);
        assertThat(busy).isGreaterThan(idle + 20);
        assertThat(heard.get(1).metrics().get(MetricKeys.WALL_MS)).isGreaterThanOrEqualTo(busy * 0.5);
        assertThat(heard.get(1).metrics().get(MetricKeys.VOLUNTARY_CTX_SWITCHES)).isGreaterThanOrEqualTo(0);
    }

    @Test
    void aFailingCommandIsRecordedWithItsExitStatusAndError() {
        ExperimentPlan plan = ExperimentPlan.of(command("echo broken >&2; exit 7"), command("true"), 2);

        new ExperimentRunner(FAKE).run(plan, heard::add);

        TrialResult failed = heard.get(0);
        assertThat(failed.status()).isEqualTo(TrialStatus.FAILED);
        assertThat(failed.metrics()).containsEntry(MetricKeys.EXIT_STATUS, 7.0);
        assertThat(failed.error()).isEqualTo("command exited with status 7\n--- last output ---\nbroken");
        assertThat(heard.get(1).ok()).isTrue();
    }

    @Test
    void cancelKillsTheRunningTrialWithItsChildrenAndStops() {
        ExperimentPlan plan = ExperimentPlan.of(command("sleep 30 & sleep 30; wait"), command("true"), 2);
        ExperimentRunner runner = new ExperimentRunner(FAKE);
        List<ProcessHandle> children = new CopyOnWriteArrayList<>();
        scheduler.schedule(() -> {
            ProcessHandle.current().descendants().forEach(children::add);
            runner.cancel();
        }, 500, TimeUnit.MILLISECONDS);

        ExperimentOutcome outcome = runner.run(plan, heard::add);

        assertThat(outcome.stop()).isEqualTo(ExperimentOutcome.Stop.CANCELLED);
        // the trial cut short is no result: none is stored, where it said "after 1 of 4"
        assertThat(outcome.message()).isEqualTo("cancelled after 0 of 4 trials");
        assertThat(heard).singleElement().extracting(TrialResult::status).isEqualTo(TrialStatus.CANCELLED);
        assertThat(children).hasSizeGreaterThanOrEqualTo(2);
        children.forEach(child -> assertThat(child.onExit()).succeedsWithin(Duration.ofSeconds(5)));
    }

    /**
     * A resumed run's cancel counts the plan's trials stored: those stored before it and its own that ended, as the
     * experiment's progress does, not the trials of the run and the one cut short.
     */
    @Test
    void aCancelOfAResumedRunCountsTheTrialsOfThePlanThatAreStored() {
        ExperimentPlan plan = ExperimentPlan.of(command("true"), command("sleep 30"), 3);
        ExperimentRunner runner = new ExperimentRunner(FAKE);

        // 0 and 1 stored before; 2 ends, 3 is cut short
        ExperimentOutcome outcome = runner.run(plan, List.of(2, 3, 4, 5), new TrialListener() {
            @Override
            public void trialStarted(PlannedTrial trial) {
                if (trial.ordinal() == 3) {
                    scheduler.schedule(runner::cancel, 300, TimeUnit.MILLISECONDS);
                }
            }

            @Override
            public void trialFinished(TrialResult result) {
                heard.add(result);
            }
        });

        assertThat(heard).extracting(TrialResult::status).containsExactly(TrialStatus.OK, TrialStatus.CANCELLED);
        assertThat(outcome.message()).isEqualTo("cancelled after 3 of 6 trials");
    }

    @Test
    void cancelDuringCooldownStartsNoFurtherTrial() {
        ExperimentPlan plan = ExperimentPlan.of(command("true"), command("true"), 2)
                .withCooldown(Duration.ofSeconds(30));
        ExperimentRunner runner = new ExperimentRunner(FAKE);
        scheduler.schedule(runner::cancel, 500, TimeUnit.MILLISECONDS);

        ExperimentOutcome outcome = runner.run(plan, heard::add);

        assertThat(outcome.stop()).isEqualTo(ExperimentOutcome.Stop.CANCELLED);
        assertThat(heard).hasSize(1);
    }

    private static EngineVariant engine(String behaviour) {
        return EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS.withRun(Duration.ofSeconds(1)))
                .withJvmArgs(List.of("-D" + FakeTrial.BEHAVIOUR + "=" + behaviour));
    }

    private static CommandVariant command(String command) {
        return new CommandVariant(command);
    }
}
