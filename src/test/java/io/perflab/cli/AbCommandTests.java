package io.perflab.cli;

import io.perflab.rpc.EngineOptions;
import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentJson;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.metering.KernelMeter;
import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import org.junit.jupiter.api.io.TempDir;

class AbCommandTests extends CommandLineTests {

    @TempDir
    Path directory;

    @Test
    void engineTrialsRunInFreshJvmsAndACrashingVariantDoesNotStopTheOthers() throws IOException {
        Path file = directory.resolve("r.json");

        int status = execute("ab", "--runs", "2", "--client-threads", "2", "--server-reactors", "1",
                "--warmup-seconds", "0.2", "--run-seconds", "0.5", "--without", "completion=monitor",
                "--with", "completion=notification", "--jvm-args", "-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1",
                "--jvm-args-with", "-XX:+NoSuchFlagInThisJvm", "--out", file.toString());

        assertThat(status).as(err.toString()).isZero();
        List<TrialResult> trials = ExperimentJson.readTrials(Files.readString(file));
        assertThat(trials).extracting(TrialResult::variant).containsExactly("without", "with", "without", "with");
        assertThat(trials).extracting(TrialResult::status)
                .containsExactly(TrialStatus.OK, TrialStatus.FAILED, TrialStatus.OK, TrialStatus.FAILED);
        assertThat(trials.get(0).metrics()).containsKeys(MetricKeys.ENGINE.toArray(String[]::new));
        assertThat(trials.get(0).pid()).isNotEqualTo(trials.get(2).pid()).isNotEqualTo(ProcessHandle.current().pid());
        assertThat(trials.get(0).environment().get("engine_options")).contains("completion=monitor");
        assertThat(trials.get(1).error()).contains("NoSuchFlagInThisJvm");
        assertThat(out.toString()).contains("trial 1/4 without OK", "trial 2/4 with    FAILED",
                "user_cpu_us_per_req: not enough 'with' observations: 0 (need ≥ 2)");
        assertThat(err.toString()).contains("2 of 4 trials did not succeed");
        Map<String, Object> json = RunnerJson.mapper().readValue(Files.readString(file), Map.class);
        assertThat(json).containsOnlyKeys("experiment", "trials");
    }

    @Test
    void commandExperimentMetersEachRun() throws IOException {
        Path file = directory.resolve("cmd.json");

        int status = execute("ab", "--runs", "2", "--without-cmd", "true", "--with-cmd", "sh -c true",
                "--order", "randomized", "--seed", "7", "--out", file.toString());

        assertThat(status).isZero();
        List<TrialResult> trials = ExperimentJson.readTrials(Files.readString(file));
        assertThat(trials).hasSize(4).allMatch(TrialResult::ok);
        assertThat(trials.get(0).metrics()).containsKeys(MetricKeys.COMMAND.toArray(String[]::new));
        assertThat(out.toString()).contains("wall_ms", "user_cpu_ms").doesNotContain("exit_status");
    }

    @Test
    void anExperimentFileThatCouldNotBeWrittenAfterTheLastTrialIsAFailure() throws IOException {
        Path folder = Files.createDirectory(directory.resolve("gone"));
        Path file = folder.resolve("r.json");

        // the baseline's first run removes the folder: every later write of the file fails
        int status = execute("ab", "--runs", "2", "--without-cmd", "rm -rf '" + folder + "'", "--with-cmd", "true",
                "--no-fast-start", "--out", file.toString());

        assertThat(status).as(err.toString()).isEqualTo(PlanExecution.EXIT_OUT_NOT_WRITTEN).isNotIn(0, 1, 2);
        assertThat(err.toString()).contains("cannot write " + file + ": its folder no longer exists",
                "--out " + file + " does not hold the last trials (its last write failed: its folder no longer "
                        + "exists)");
        assertThat(out.toString()).as("the report still has every trial").contains("wall_ms");
    }

    @Test
    void anOutFileThatIsALinkIsWrittenThroughAndTheLinkKept() throws IOException {
        Path file = Files.writeString(directory.resolve("runs.json"), "{}");
        Path link = Files.createSymbolicLink(directory.resolve("latest.json"), file.getFileName());

        // the temporary file was renamed onto the link: the link became a file, the file it named kept "{}"
        int status = execute("ab", "--runs", "2", "--without-cmd", "true", "--with-cmd", "true", "--no-fast-start",
                "--out", link.toString());

        assertThat(status).as(err.toString()).isZero();
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(ExperimentJson.readTrials(Files.readString(file))).hasSize(4);
    }

    @Test
    void tooManyFailuresStopsWithAClearMessage() {
        int status = execute("ab", "--runs", "3", "--without-cmd", "exit 1", "--with-cmd", "true",
                "--max-failures", "1");

        assertThat(status).isEqualTo(PlanExecution.EXIT_TOO_MANY_FAILURES);
        assertThat(err.toString()).contains("stopped after 2 failed trials (more than --max-failures 1)");
    }

    @Test
    void aTrialJvmThatExitsWithoutAResultShowsWhatItPrintedLast() {
        // "trial JVM exited with status 1 without a result" for every trial, and the JVM's own reason nowhere
        int status = execute("ab", "--runs", "2", "--with", "completion=monitor", "--jvm-args=-Xmx", "--no-fast-start",
                "--max-failures", "4");

        assertThat(status).as(err.toString()).isZero();
        assertThat(err.toString()).contains("4 of 4 trials did not succeed",
                "trial 3 (with, FAILED): trial JVM exited with status 1 without a result",
                "trial 3 printed last:\n    Invalid maximum heap size: -Xmx");
    }

    @Test
    void badFlagsExitTwoNamingTheFlagAndTheAllowedValues() {
        assertRejected("--runs must be ≥ 2", "ab", "--runs", "1");
        assertRejected("--order must be interleaved, randomized or blocked, got 'zigzag'", "ab", "--runs", "2",
                "--order", "zigzag");
        assertRejected("--with: unknown engine option 'nagle'", "ab", "--runs", "2", "--with", "nagle=off");
        assertRejected("--without: ", "ab", "--runs", "2", "--without", "completion=psychic");
        assertRejected("--trial-timeout must not be negative", "ab", "--runs", "2", "--trial-timeout", "-5");
        assertRejected("--trial-timeout must be at least 1 s, got 0.001", "ab", "--runs", "2", "--trial-timeout",
                "0.001");
        assertRejected("'--warmup-seconds': must be a number of seconds ≥ 0, 'auto' or 'auto:MAX'", "ab", "--runs",
                "2", "--warmup-seconds", "-1");
        assertRejected("needs both --with-cmd and --without-cmd", "ab", "--runs", "2", "--with-cmd", "true");
        assertRejected("--max-failures must be ≥ 0", "ab", "--runs", "2", "--max-failures", "-1");
        assertRejected("Missing required option: '--runs=N'", "ab", "--design", "fresh");
        // twice 1.5 billion trials were an int overflow and a stack trace (IllegalArgumentException: Illegal Capacity)
        assertRejected("--runs must be at most 1000000, got 1500000000", "ab", "--with-cmd", "true", "--without-cmd",
                "true", "--runs", "1500000000", "--no-fast-start");
        // --out is first written after the first trial: a file that cannot be written is refused before any runs
        assertRejected("--out /nonexistent/folder/x.json: its folder /nonexistent/folder does not exist", "ab",
                "--runs", "2", "--out", "/nonexistent/folder/x.json");
        assertRejected("--out " + System.getProperty("java.io.tmpdir") + ": is a folder; give a file name", "ab",
                "--runs", "2", "--out", System.getProperty("java.io.tmpdir"));
        // --encryption turned tls on for both sides, and the side's tls=false was ignored without a word
        assertRejected("--with tls=false and --encryption contradict each other", "ab", "--runs", "2", "--with",
                "tls=false", "--encryption", "--no-fast-start", "--warmup-seconds", "0", "--run-seconds", "0.1");
        assertRejected("--without tls=FALSE and --encryption contradict each other", "ab", "--design", "alternating",
                "--pairs", "2", "--without", "tls=FALSE", "--encryption", "--no-fast-start", "--warmup-seconds", "0",
                "--run-seconds", "0.1");
        // taskset refused every trial JVM, and each trial failed "without a result"
        assertRejected("--cpus 8191 names CPUs this process may not use (8191); it may use ", "ab", "--with",
                "completion=monitor", "--cpus", "8191", "--no-fast-start");
    }

    /**
     * {@code ab --cpus 5} printed "The default experiment: at most 20 pairs…" before its refusal, as if the experiment
     * had started: the line comes once every flag has been checked.
     */
    @Test
    void theDefaultExperimentIsAnnouncedOnlyOnceEveryFlagHasBeenChecked() {
        int status = execute("ab", "--with", "completion=monitor", "--cpus", "8191", "--no-fast-start");

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("--cpus 8191 names CPUs this process may not use");
        assertThat(out.toString()).doesNotContain("The default experiment");

        status = execute("ab", "--with", "completion=monitor", "--jvm-args-with=-Xmx1g", "--target", "nothing:1%");

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("--target: unknown metric 'nothing'");
        assertThat(out.toString()).doesNotContain("The default experiment");
    }

    /** A count this host does not give is refused before a trial runs, with the kernel's reason. */
    @Test
    void aTargetOnACountThisHostDoesNotGiveIsRefusedBeforeAnyTrial() {
        Optional<String> missing = KernelMeter.hardwareNotCounted();
        Assumptions.assumeTrue(missing.isPresent(), "this host counts instructions");

        int status = execute("ab", "--with", "completion=monitor", "--pairs", "2", "--target",
                "instructions_per_req:settled", "--no-fast-start");

        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("--target: instructions_per_req is not counted on this host, so its "
                + "target could never be settled: " + missing.get());
        assertThat(out.toString()).doesNotContain("pair 0");
    }

    @Test
    void aPairedCommandExperimentAlternatesItsRunsComparesPairByPairAndPrintsEachLook() throws IOException {
        Path file = directory.resolve("pairs.json");

        // two commands alike in cost ('sh -c true' starts a second shell, which could settle the target at the first
        // look and end the run before the third pair)
        int status = execute("ab", "--design", "alternating", "--pairs", "3", "--windows-per-pair", "2",
                "--without-cmd", "true", "--with-cmd", "true; true", "--target", "wall_ms:settled", "--out",
                file.toString());

        assertThat(status).as(err.toString()).isZero();
        List<TrialResult> trials = ExperimentJson.readTrials(Files.readString(file));
        assertThat(trials).hasSize(12).allMatch(t -> t.pair() != null && t.pair().window() != null);
        assertThat(out.toString()).contains("3 pairs of 2 windows per variant (alternating)",
                "pair 0 window 0, 1/12 without OK", "look 1 (2 pairs, 67 % of 3): wall_ms",
                "look 2 (3 pairs, 100 % of 3): wall_ms", "Paired analysis: 3 pairs of up to 2 windows",
                "Welch's test of the same pairs' window means as two independent groups, ignoring the pairing");
        // the target is judged as the service judges it: by the last look, after the tests that ignore the looks
        String printed = out.toString();
        assertThat(printed.substring(printed.indexOf("Paired analysis:"))).contains(
                "The targets judged by the stopping rule's last look (the tests above ignore the looks):\n"
                        + "  look 2 (3 pairs, 100 % of 3): wall_ms");
        assertThat(Files.readString(file)).contains("\"design\" : \"alternating\"", "\"windowsPerPair\" : 2");
    }

    @Test
    void pairedFlagsAreCheckedAgainstTheDesign() {
        assertRejected("--runs sets the trials of the fresh design; --design duet takes --pairs", "ab", "--design",
                "duet", "--runs", "3");
        // the plan is made fresh before its design is set: "--runs must be at most 1000000, got 1000001"
        assertRejected("--pairs must be at most 1000000, got 1000001", "ab", "--pairs", "1000001", "--with-cmd",
                "true", "--without-cmd", "true");
        assertRejected("--pairs must be ≥ 2 (a variance needs two pairs), got 1", "ab", "--design", "duet",
                "--pairs", "1");
        assertRejected("--pairs, --windows-per-pair, --target and --budget apply to --design duet or alternating",
                "ab", "--runs", "2", "--pairs", "3");
        assertRejected("--design must be fresh, duet or alternating, got 'trio'", "ab", "--design", "trio");
        assertRejected("a command experiment takes --design fresh or alternating", "ab", "--design", "duet",
                "--pairs", "2", "--with-cmd", "true", "--without-cmd", "true");
        assertRejected("--windows-per-pair must be between 1 and 1000, got 0", "ab", "--design", "duet",
                "--pairs", "2", "--windows-per-pair", "0");
        assertRejected("--target: unknown metric 'cpu_per_req'", "ab", "--design", "alternating", "--pairs", "2",
                "--with-cmd", "true", "--without-cmd", "true", "--target", "cpu_per_req:1%");
        assertRejected("--target: a target's precision is a percentage > 0, 'settled' or mde=PERCENT%, got 'tight'",
                "ab",
                "--design", "alternating", "--pairs", "2", "--with-cmd", "true", "--without-cmd", "true",
                "--target", "wall_ms:tight");
        // looks are made per metric: a second target on one would never have its own, and nothing would stop early
        assertRejected("--target: names the metric 'wall_ms' twice ('wall_ms:1%' and 'wall_ms:settled')", "ab",
                "--design", "alternating", "--pairs", "2", "--with-cmd", "true", "--without-cmd", "true",
                "--target", "wall_ms:1%", "--target", "wall_ms:settled");
        assertRejected("--budget takes a duration such as 10m, 90s or 1h30m, got 'soon'", "ab", "--design",
                "alternating", "--pairs", "2", "--with-cmd", "true", "--without-cmd", "true", "--budget", "soon");
    }

    @Test
    void aPairedEnginePlanHasItsDesignAndWindows() {
        AbCommand command = new AbCommand();
        new CommandLine(command).parseArgs("--design", "duet", "--pairs", "12", "--windows-per-pair", "4",
                "--server-work-nanos", "500");

        ExperimentPlan plan = command.plan();

        assertThat(plan.design()).isEqualTo(io.perflab.runner.experiment.ExperimentDesign.DUET);
        assertThat(plan.pairs()).isEqualTo(12);
        assertThat(plan.windowsPerPair()).isEqualTo(4);
        assertThat(((EngineVariant) plan.with()).workload().serverWorkNanos()).isEqualTo(500);
        assertRejected("--server-work-nanos: must be less than or equal to 1000000, got 2000000", "ab", "--runs", "2",
                "--server-work-nanos", "2000000");
    }

    @Test
    void withoutDesignOrRunsAnExperimentIsTheDefaultAlternatingOneStoppingWhenCpuPerCallIsSettled() {
        AbCommand command = new AbCommand();
        new CommandLine(command).parseArgs("--with", "completion=monitor");
        AbCommand fresh = new AbCommand();
        new CommandLine(fresh).parseArgs("--runs", "4", "--with", "completion=monitor");
        AbCommand longer = new AbCommand();
        new CommandLine(longer).parseArgs("--run-seconds", "5", "--pairs", "12", "--with", "completion=monitor");

        ExperimentPlan plan = command.plan();

        assertThat(plan.design()).isEqualTo(io.perflab.runner.experiment.ExperimentDesign.ALTERNATING);
        assertThat(plan.pairs()).isEqualTo(40);
        assertThat(command.effectiveTargets(plan)).containsExactly("user_cpu_us_per_req:mde=2%",
                "sys_cpu_us_per_req:mde=2%", "cpu_us_per_req:mde=2%", "ctx_switches_per_req:mde=2%");
        assertThat(String.format(io.perflab.paired.PairedInput.DEFAULT_TARGETS_FORMATTED))
                .as("the help's targets are the default's")
                .isEqualTo(String.join(" ", io.perflab.paired.PairedInput.DEFAULT_TARGETS));
        assertThat(plan.windowsPerPair()).isEqualTo(3);
        assertThat(((EngineVariant) plan.with()).workload().run()).isEqualTo(java.time.Duration.ofSeconds(3));
        assertThat(((EngineVariant) plan.with()).workload().warmup().toString()).isEqualTo("auto:15");
        assertThat(fresh.plan().design()).isEqualTo(io.perflab.runner.experiment.ExperimentDesign.FRESH);
        assertThat(((EngineVariant) fresh.plan().with()).workload().run()).isEqualTo(java.time.Duration.ofSeconds(5));
        assertThat(longer.plan().pairs()).isEqualTo(12);
        assertThat(longer.effectiveTargets(longer.plan())).as("--pairs without --target: all run").isEmpty();
        assertThat(((EngineVariant) longer.plan().with()).workload().run()).isEqualTo(java.time.Duration.ofSeconds(5));
        AbCommand targeted = new AbCommand();
        new CommandLine(targeted).parseArgs("--target", "ctx_switches_per_req:settled", "--with", "completion=monitor");
        assertThat(targeted.plan().pairs()).isEqualTo(40);
        assertThat(targeted.effectiveTargets(targeted.plan())).containsExactly("ctx_switches_per_req:settled");
        AbCommand commands = new AbCommand();
        new CommandLine(commands).parseArgs("--with-cmd", "true", "--without-cmd", "sleep 0");
        assertThat(commands.plan().pairs()).as("a command experiment: 8 pairs, all run").isEqualTo(8);
        assertThat(commands.effectiveTargets(commands.plan())).isEmpty();

        assertThat(command.defaultExperimentLine(plan)).hasValue("The default experiment: at most 40 pairs, stopping "
                + "once every target is met: user_cpu_us_per_req:mde=2%, sys_cpu_us_per_req:mde=2%, "
                + "cpu_us_per_req:mde=2%, ctx_switches_per_req:mde=2% (--pairs K runs K pairs, all of them; --target "
                + "sets others).");
        assertThat(longer.defaultExperimentLine(longer.plan())).isEmpty();
        assertThat(targeted.defaultExperimentLine(targeted.plan())).isEmpty();
        assertThat(fresh.defaultExperimentLine(fresh.plan())).isEmpty();
        assertThat(commands.defaultExperimentLine(commands.plan())).isEmpty();
    }

    @Test
    void eachSideMayPutAnotherStackUnderTheSameWorkload() {
        AbCommand command = new AbCommand();
        new CommandLine(command).parseArgs("--runs", "20", "--mode", "async", "--without", "stack=grpc",
                "--with", "stack=perflab", "completion=monitor");

        ExperimentPlan plan = command.plan();

        EngineVariant without = (EngineVariant) plan.without();
        EngineVariant with = (EngineVariant) plan.with();
        assertThat(without.workload().stack()).isEqualTo(Stack.GRPC);
        assertThat(without.engineOptions()).isEqualTo(EngineOptions.defaults());
        assertThat(with.workload().stack()).isEqualTo(Stack.PERFLAB);
        assertThat(with.engineOptions().completion()).isEqualTo(EngineOptions.Completion.MONITOR);
        assertThat(with.workload().withStack(Stack.GRPC)).isEqualTo(without.workload());
        assertThat(without.trialSpec().toJson()).contains("\"stack\":\"grpc\"");
        assertThat(plan.describe().toString()).contains("stack=grpc", "stack=perflab");
    }

    @Test
    void anEngineOptionOrStackGivenTwiceOnASideIsRefusedNamingIt() {
        // the last one won, silently: completion=bogus was never even checked
        assertThat(planError("--runs", "2", "--with", "completion=bogus", "completion=monitor")).isEqualTo(
                "--with sets completion twice ('bogus' and 'monitor'); give each option once");
        assertThat(planError("--runs", "2", "--without", "stack=grpc", "--without", "stack=netty")).isEqualTo(
                "--without sets stack twice ('grpc' and 'netty'); give each option once");
    }

    @Test
    void aCommandExperimentRefusesTheFlagsOfEngineTrials() {
        // each was ignored: the commands ran as they were
        assertThat(planError("--with-cmd", "true", "--without-cmd", "true", "--runs", "2", "--client-threads", "-5",
                "--run-seconds", "5000", "--jvm-args-with", "-Xmx1g")).isEqualTo("--client-threads, --run-seconds, "
                + "--jvm-args-with set the workload or the JVM of engine trials; a command experiment "
                + "(--with-cmd/--without-cmd) runs its commands as they are: leave them out");
        assertThat(planError("--with-cmd", "true", "--without-cmd", "true", "--runs", "2", "--jvm-args", "-Xmx1g",
                "--jvm-args-without=-Xint", "--stack", "grpc"))
                .startsWith("--stack, --jvm-args-without, --jvm-args set");

        AbCommand command = new AbCommand();
        new CommandLine(command).parseArgs("--with-cmd", "true", "--without-cmd", "true", "--runs", "2",
                "--max-failures", "0", "--cooldown", "1", "--no-fast-start");
        assertThat(command.plan().runsPerVariant()).as("flags of every trial are taken").isEqualTo(2);
    }

    @Test
    void onlyAnEngineExperimentPreparesItsTrialJvmsToStartFast() {
        // a command experiment extracted the jar and made the class-data sharing archive, up to two minutes of a
        // trial JVM of the engine's, for trial JVMs it never starts
        List<List<String>> preparedFor = new ArrayList<>();
        TrialProcessOptions.FastStartPreparation recorded = (launcher, jvmArgs, log) -> {
            preparedFor.add(jvmArgs);
            return launcher;
        };
        AbCommand fresh = new AbCommand(new TrialProcessOptions(recorded));
        new CommandLine(fresh).parseArgs("--runs", "2", "--with-cmd", "true", "--without-cmd", "sh -c true");
        AbCommand paired = new AbCommand(new TrialProcessOptions(recorded));
        new CommandLine(paired).parseArgs("--design", "alternating", "--pairs", "2", "--with-cmd", "true",
                "--without-cmd", "sh -c true");
        AbCommand engine = new AbCommand(new TrialProcessOptions(recorded));
        new CommandLine(engine).parseArgs("--runs", "2", "--with", "completion=monitor", "--jvm-args", "-Xmx256m");

        assertThat(fresh.launcher(fresh.plan())).isEqualTo(TrialLauncher.ofThisJvm());
        assertThat(paired.launcher(paired.plan())).isEqualTo(TrialLauncher.ofThisJvm());
        assertThat(preparedFor).as("prepared for a command experiment").isEmpty();

        engine.launcher(engine.plan());

        assertThat(preparedFor).singleElement().isEqualTo(List.of("-Xmx256m"));
    }

    @Test
    void aPairedDesignRefusesAnOrderAndASeedAsTheApiDoes() {
        // PairRunner reads neither: the pairs ran in turn whatever they said
        assertThat(planError("--pairs", "8", "--order", "randomized", "--seed", "9")).isEqualTo("--order applies to "
                + "the fresh design; the pairs of the alternating design run in turn, their CPU halves and start "
                + "order swapped from pair to pair");
        assertThat(planError("--design", "duet", "--seed", "9")).isEqualTo("--seed draws the randomized order of "
                + "the fresh design; the pairs of the duet design run in turn, their CPU halves and start order "
                + "swapped from pair to pair");

        AbCommand interleaved = new AbCommand();
        new CommandLine(interleaved).parseArgs("--pairs", "3", "--order", "interleaved");
        assertThat(interleaved.plan().pairs()).as("the order the pairs keep, as the API takes it").isEqualTo(3);
    }

    /** The message of the usage error {@link AbCommand#plan()} makes of {@code args}: parsed, nothing run. */
    private static String planError(String... args) {
        AbCommand command = new AbCommand();
        new CommandLine(command).parseArgs(args);
        try {
            command.plan();
        } catch (CommandLine.ParameterException e) {
            return e.getMessage();
        }
        throw new AssertionError("no usage error for " + String.join(" ", args));
    }

    @Test
    void badStacksExitTwoNamingTheSide() {
        assertRejected("--with stack=thrift: must be perflab, grpc or netty, got 'thrift'", "ab", "--runs",
                "2", "--with", "stack=thrift");
        assertRejected("--without: engine option completion applies to stack=perflab only, not stack=netty", "ab",
                "--runs", "2", "--without", "stack=netty", "completion=monitor");
        assertRejected("--with: engine option flush applies to stack=perflab only, not stack=grpc", "ab", "--runs",
                "2", "--stack", "grpc", "--with", "flush=immediate");
    }

    @Test
    void summaryIsTheVerdictTableOverSuccessfulTrials() {
        List<TrialResult> results = List.of(userCpuTrial("without", 0, 20.0), userCpuTrial("with", 1, 18.9),
                userCpuTrial("without", 2, 20.2), userCpuTrial("with", 3, 19.0), userCpuTrial("without", 4, 19.9),
                userCpuTrial("with", 5, 19.1), userCpuTrial("without", 6, 20.1), userCpuTrial("with", 7, 18.8),
                new TrialResult("with", 8, TrialStatus.FAILED, null, null, 1, Map.of(), Map.of(), "crashed"));

        String table = AbSummary.format(results);

        // R 4.2.2: t.test(c(18.9,19,19.1,18.8), c(20,20.2,19.9,20.1)) → t = -12.05, df = 6, p-value = 1.983e-05;
        // 100 * (18.95 / 20.05 - 1) = -5.49 %
        assertThat(table).contains("user_cpu_us_per_req", "improved", "1.983e-05", "-5.49%");
    }

    @Test
    void summaryOfTooFewTrialsSaysWhyInsteadOfANumber() {
        String table = AbSummary.format(List.of(userCpuTrial("without", 0, 20.0), userCpuTrial("with", 1, 19.0)));

        assertThat(table).contains("user_cpu_us_per_req").doesNotContain("NaN");
    }
}
