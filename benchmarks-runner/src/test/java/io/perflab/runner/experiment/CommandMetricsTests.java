package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.ParsedMetric;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Command trials whose variants name an output format: what each run prints becomes its samples. */
class CommandMetricsTests {

    /**
     * Reads lines {@code name value [unit]}; names ending in {@code _per_sec} are higher-is-better. Another line
     * mentioning "details" becomes a detail. No such line: the message a format adapter would give.
     */
    private static final MetricsReader LINES = new MetricsReader() {
        @Override
        public Set<String> formats() {
            return Set.of("lines");
        }

        @Override
        public Reading read(String format, String output) {
            Map<String, List<Double>> values = new LinkedHashMap<>();
            Map<String, String> units = new LinkedHashMap<>();
            for (String line : output.lines().toList()) {
                String[] words = line.trim().split("\\s+");
                if (words.length >= 2 && words[1].matches("-?[0-9.]+")) {
                    values.computeIfAbsent(words[0], k -> new ArrayList<>()).add(Double.parseDouble(words[1]));
                    units.put(words[0], words.length > 2 ? words[2] : "");
                }
            }
            if (values.isEmpty()) {
                throw new IllegalArgumentException("expected lines 'name value [unit]', found none");
            }
            Map<String, ParsedMetric> metrics = new LinkedHashMap<>();
            values.forEach((key, v) -> metrics.put(key, new ParsedMetric(units.get(key), key.endsWith("_per_sec"), v)));
            return new Reading(metrics, Map.of("lines", Integer.toString(output.lines().toList().size())));
        }
    };

    @TempDir
    Path directory;

    private final List<TrialResult> heard = new ArrayList<>();

    @Test
    void eachRunsPrintedMetricsAreItsSamplesBesideItsResourceUsage() {
        ExperimentPlan plan = ExperimentPlan.of(
                lines("printf 'ops_per_sec 100 ops/s\\nlatency 4 ms\\nlatency 6 ms\\n'"),
                lines("printf 'ops_per_sec 120 ops/s\\nlatency 3 ms\\n'"), 2);

        ExperimentOutcome outcome = new ExperimentRunner(TrialLauncher.ofThisJvm(), LINES).run(plan, heard::add);

        assertThat(outcome.stop()).isEqualTo(ExperimentOutcome.Stop.COMPLETED);
        assertThat(heard).hasSize(4).allMatch(TrialResult::ok);
        TrialResult without = heard.get(0);
        assertThat(without.metrics()).containsEntry("ops_per_sec", 100.0).containsEntry("latency", 5.0)
                .containsKeys(MetricKeys.COMMAND.toArray(String[]::new));
        assertThat(new ArrayList<>(without.metrics().keySet()).subList(0, 2)).containsExactly("ops_per_sec",
                "latency");
        assertThat(without.parsedMetrics().get("latency")).isEqualTo(new ParsedMetric("ms", false, List.of(4.0, 6.0)));
        assertThat(without.higherIsBetter("ops_per_sec")).isTrue();
        assertThat(without.higherIsBetter("latency")).isFalse();
        assertThat(without.environment()).containsEntry("metrics_format", "lines").containsEntry("output.lines", "3");
        assertThat(heard.get(1).metrics()).containsEntry("ops_per_sec", 120.0).containsEntry("latency", 3.0);
    }

    @Test
    void aCommandWritingToTheOutputPlaceholderIsReadFromAFreshFileDeletedAfterTheTrial() throws IOException {
        Path seen = directory.resolve("seen");
        String command = "echo {output} >> '" + seen + "'; test ! -s {output} && printf 'n 3\\nn 5\\n' > {output}; "
                + "echo 'progress 99 %'";
        ExperimentPlan plan = ExperimentPlan.of(lines(command), lines(command + " ; true"), 2);

        new ExperimentRunner(TrialLauncher.ofThisJvm(), LINES).run(plan, heard::add);

        assertThat(heard).hasSize(4).allMatch(TrialResult::ok);
        assertThat(heard).allSatisfy(r -> assertThat(r.metrics()).containsEntry("n", 4.0)
                .doesNotContainKey("progress"));
        List<String> files = Files.readAllLines(seen);
        assertThat(files).hasSize(4).doesNotHaveDuplicates().noneMatch(file -> Files.exists(Path.of(file)));
    }

    @Test
    void outputThatDoesNotParseFailsTheTrialWithTheReadersMessageAndTheOutputsTail() {
        ExperimentPlan plan = ExperimentPlan.of(lines("echo 'Benchmark results'; echo 'all fine, no numbers'"),
                lines("printf 'n 1\\n'"), 2).withMaxFailures(1);

        ExperimentOutcome outcome = new ExperimentRunner(TrialLauncher.ofThisJvm(), LINES).run(plan, heard::add);

        TrialResult failed = heard.get(0);
        assertThat(failed.status()).isEqualTo(TrialStatus.FAILED);
        assertThat(failed.error()).startsWith("the command's output is not lines output as PerfLab reads it (its "
                + "standard output): expected lines 'name value [unit]', found none")
                .contains("--- last output ---\nBenchmark results\nall fine, no numbers");
        assertThat(failed.metrics()).as("it exited with 0: what failed is its output").doesNotContainKey(
                MetricKeys.EXIT_STATUS).containsKeys(MetricKeys.COMMAND.toArray(String[]::new));
        assertThat(outcome.stop()).isEqualTo(ExperimentOutcome.Stop.TOO_MANY_FAILURES);
        assertThat(heard.get(1).ok()).isTrue();
    }

    @Test
    void emptyOutputAndMetricsNamedLikeMeasuredFiguresFailSayingSo() {
        ExperimentPlan plan = ExperimentPlan.of(lines("echo oops >&2"), lines("echo 'wall_ms 3'"), 2);

        new ExperimentRunner(TrialLauncher.ofThisJvm(), LINES).run(plan, heard::add);

        assertThat(heard.get(0).error()).contains("its standard output is empty", "--- last output ---\noops");
        assertThat(heard.get(1).error()).contains("has a metric named 'wall_ms'");

        heard.clear();
        new ExperimentRunner(TrialLauncher.ofThisJvm(), LINES).run(ExperimentPlan.of(lines("echo 'exit_status 0'"),
                lines("echo 'n 1'"), 2), heard::add);
        assertThat(heard.get(0).error()).as("a failed trial's figure, though ended trials do not carry it")
                .contains("has a metric named 'exit_status'");
    }

    /**
     * The runs of a paired design record the host's speed and the metrics scaled to it under names of their own: a
     * metric of that name in the output had its sample replaced by the probe's figure, while the values read from
     * the output, and its unit and direction, were kept under the same name.
     */
    @Test
    void metricsNamedLikeTheHostsSpeedOrAScaledFigureFailSayingSo() {
        ExperimentPlan plan = ExperimentPlan.of(lines("sleep 0.2; echo 'host_probe_ns 5'"),
                lines("sleep 0.2; echo 'cpu_us_per_req_adj 7'"), 2).withDesign(ExperimentDesign.ALTERNATING, 1);

        PairedOutcome outcome = new ExperimentRunner(TrialLauncher.ofThisJvm(), LINES).runPairs(plan,
                new PairListener() {
                    @Override
                    public void pairStarted(int pair, PairPlacement placement) {
                    }

                    @Override
                    public void pairFinished(PairResult pair) {
                    }
                }, PairStoppingRule.NEVER);

        assertThat(outcome.results()).noneMatch(TrialResult::ok);
        assertThat(outcome.results().get(0).error()).contains("has a metric named 'host_probe_ns'");
        assertThat(outcome.results()).allSatisfy(r -> assertThat(r.metrics()).isEmpty());
        heard.clear();
        new ExperimentRunner(TrialLauncher.ofThisJvm(), LINES).run(ExperimentPlan.of(
                lines("echo 'cpu_us_per_req_adj 7'"), lines("echo 'host_probe_syscall_ns 2'"), 2), heard::add);
        assertThat(heard.get(0).error()).contains("has a metric named 'cpu_us_per_req_adj'");
        assertThat(heard.get(1).error()).contains("has a metric named 'host_probe_syscall_ns'");
    }

    /**
     * A failed run's standard output, when it wrote no error, is quoted from its last lines: the whole file was read
     * for them, and a run that wrote 3 GiB threw an OutOfMemoryError out of the experiment.
     */
    @Test
    void aFailedRunsHugeOutputIsQuotedFromItsEndWithoutReadingItWhole() {
        String huge = "seq 1 100 | dd of=/dev/stdout bs=1048576 seek=3072 conv=notrunc 2>/dev/null; exit 3";
        ExperimentPlan plan = ExperimentPlan.of(lines(huge), lines("echo 'n 1'"), 2);

        new ExperimentRunner(TrialLauncher.ofThisJvm(), LINES).run(plan, heard::add);

        TrialResult failed = heard.get(0);
        assertThat(failed.status()).isEqualTo(TrialStatus.FAILED);
        assertThat(failed.metrics()).containsEntry(MetricKeys.EXIT_STATUS, 3.0);
        assertThat(failed.error()).startsWith("command exited with status 3\n--- last output ---\n71\n72\n")
                .endsWith("\n99\n100").doesNotContain("\0");
        assertThat(heard.get(1).ok()).isTrue();
    }

    @Test
    void eachVariantRunsInItsOwnDirectoryAndEnvironment() throws IOException {
        Path old = Files.createDirectory(directory.resolve("build-old"));
        Files.writeString(old.resolve("marker"), "");
        String command = "test -f marker && printf 'speed %s\\n' \"$SPEED\"";
        ExperimentPlan plan = ExperimentPlan.of(
                new CommandVariant(command, Optional.of("lines"), Optional.of(old), Map.of("SPEED", "7")),
                new CommandVariant(command, Optional.of("lines"), Optional.of(directory), Map.of("SPEED", "9")), 2)
                .withMaxFailures(2);

        new ExperimentRunner(TrialLauncher.ofThisJvm(), LINES).run(plan, heard::add);

        assertThat(heard.get(0).metrics()).containsEntry("speed", 7.0);
        assertThat(heard.get(0).environment()).containsEntry("directory", old.toString());
        assertThat(heard.get(1).error()).startsWith("command exited with status 1");
    }

    @Test
    void aMissingDirectoryOrAnUnknownFormatFailsTheTrialSayingWhy() {
        ExperimentPlan plan = ExperimentPlan.of(new CommandVariant("true", Optional.of("lines"),
                Optional.of(directory.resolve("nowhere")), Map.of()), lines("echo 'n 1'"), 2);

        new ExperimentRunner(TrialLauncher.ofThisJvm()).run(plan, heard::add);

        assertThat(heard.get(0).error()).contains("nowhere does not exist or is not a directory");
        assertThat(heard.get(1).error()).contains("this runner reads no metrics formats");
    }

    @Test
    void aVariantIsCheckedWhenMade() {
        assertThatThrownBy(() -> new CommandVariant("jmh -rff {output}"))
                .hasMessageContaining("writes to {output} but no metrics format");
        assertThatThrownBy(() -> new CommandVariant("true", Optional.empty(), Optional.empty(), Map.of("1X", "a")))
                .hasMessageContaining("got '1X'");
        assertThat(new CommandVariant("b -o {output}", Optional.of("jmh"), Optional.empty(), Map.of("A", "1"))
                .describe()).containsEntry("metricsFormat", "jmh").containsEntry("environment", Map.of("A", "1"));
    }

    private static CommandVariant lines(String command) {
        return new CommandVariant(command, Optional.of("lines"), Optional.empty(), Map.of());
    }
}
