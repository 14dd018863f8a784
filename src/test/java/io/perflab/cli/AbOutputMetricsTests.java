package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.PerfLabApplication;
import io.perflab.runner.experiment.ExperimentJson;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.ParsedMetric;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.upload.JmhRunScript;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code perflab ab --metrics}: command experiments whose runs print their own metrics. */
class AbOutputMetricsTests {

    @TempDir
    Path directory;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void rpcBenchReportsOfTwoEngineOptionsAreComparedTrialByTrialOnTheSeedsMetrics() throws IOException {
        Path file = directory.resolve("bench.json");
        String bench = "'" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -Xmx256m -XX:+UseSerialGC "
                + "-XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path") + "' "
                + PerfLabApplication.class.getName() + " bench --client-threads 2 --server-reactors 1 "
                + "--warmup-seconds 0 --run-seconds 0.3 --cpu-split tick --count-syscalls false --set completion=";

        int status = execute("ab", "--runs", "2", "--without-cmd", bench + "monitor", "--with-cmd",
                bench + "notification", "--metrics", "rpcbench", "--out", file.toString());

        assertThat(status).as(err.toString()).isZero();
        List<TrialResult> trials = ExperimentJson.readTrials(Files.readString(file));
        assertThat(trials).hasSize(4).allMatch(TrialResult::ok);
        for (TrialResult trial : trials) {
            assertThat(trial.metrics()).containsKeys(MetricKeys.REQS_PER_SEC, MetricKeys.USER_CPU_US_PER_REQ,
                    MetricKeys.SYS_CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ, MetricKeys.WALL_MS,
                    MetricKeys.USER_CPU_MS);
            assertThat(trial.metrics().get(MetricKeys.REQS_PER_SEC)).isPositive();
            assertThat(trial.environment()).containsEntry("metrics_format", "rpcbench").containsEntry(
                    "output.completion", trial.variant().equals("with") ? "notification" : "monitor");
        }
        assertThat(trials.get(0).parsedMetrics().get(MetricKeys.REQS_PER_SEC))
                .extracting(ParsedMetric::unit, ParsedMetric::higherIsBetter).containsExactly("req/s", true);
        assertThat(trials.get(0).parsedMetrics().get(MetricKeys.CTX_SWITCHES_PER_REQ).values()).hasSize(1);
        assertThat(out.toString()).contains("4 trials (2 per variant, interleaved)");
        for (String metric : MetricKeys.HEADLINE) {
            assertThat(out.toString().lines().filter(line -> line.startsWith(metric + " ")).toList())
                    .as(out.toString()).singleElement().asString().contains("%").doesNotContain("not compared");
        }
    }

    @Test
    void jmhResultsWrittenToTheOutputFileGiveEachTrialTheMeanOfItsIterations() throws IOException {
        Files.writeString(directory.resolve("jmh.sh"), JmhRunScript.SCRIPT);
        Path old = Files.createDirectory(directory.resolve("old"));
        Path changed = Files.createDirectory(directory.resolve("new"));
        Path file = directory.resolve("jmh.json");
        String command = "sh '" + directory.resolve("jmh.sh") + "' {output}";

        int status = execute("ab", "--runs", "3", "--without-cmd", command, "--with-cmd", command,
                "--without-dir", old.toString(), "--with-dir", changed.toString(), "--without-env", "SCORE=100",
                "--with-env", "SCORE=200", "--metrics", "jmh", "--out", file.toString());

        assertThat(status).as(err.toString()).isZero();
        List<TrialResult> trials = ExperimentJson.readTrials(Files.readString(file));
        assertThat(trials).extracting(t -> t.metrics().get("Parse.parse"))
                .containsExactly(104.0, 204.0, 105.0, 205.0, 106.0, 206.0);
        assertThat(trials.get(0).parsedMetrics().get("Parse.parse"))
                .isEqualTo(new ParsedMetric("ops/s", true, List.of(101.0, 103.0, 105.0, 107.0)));
        assertThat(trials.get(0).environment()).containsEntry("output.vmName", "OpenJDK 64-Bit Server VM");
        assertThat(out.toString()).contains("Parse.parse").contains("improved");
    }

    @Test
    void outputThatIsNotInTheFormatFailsEachTrialWithTheAdaptersMessageAndTheOutputsTail() throws IOException {
        Path file = directory.resolve("bad.json");

        int status = execute("ab", "--runs", "2", "--without-cmd", "echo 'Reqs/sec: fast'", "--with-cmd",
                "echo '[1, 2'", "--metrics", "jmh", "--max-failures", "4", "--out", file.toString());

        assertThat(status).isZero();
        List<TrialResult> trials = ExperimentJson.readTrials(Files.readString(file));
        assertThat(trials).extracting(TrialResult::status).containsOnly(TrialStatus.FAILED);
        assertThat(trials.get(0).error()).contains("The upload is not in the format 'jmh': expected JMH JSON",
                "--- last output ---\nReqs/sec: fast");
        assertThat(trials.get(1).error()).contains("looks truncated", "--- last output ---\n[1, 2");
        assertThat(err.toString()).contains("4 of 4 trials did not succeed");
    }

    @Test
    void commandFlagsAreCheckedNamingTheFlag() {
        assertRejected("--metrics must be one of json, jmh, gobench", "--metrics", "xml");
        assertRejected("--with-dir: no directory", "--metrics", "jmh", "--with-dir",
                directory.resolve("missing").toString());
        assertRejected("--without-env takes NAME=value, got 'SCORE'", "--without-env", "SCORE");
        assertRejected("--with-env: environment variable names are letters", "--with-env", "1A=b");
        assertRejected("--without-cmd: the command writes to {output} but no metrics format", "--without-cmd",
                "jmh -rff {output}");
    }

    /** The second value of a variable given twice replaced the first without a word, as if only it were meant. */
    @Test
    void aVariableGivenTwiceForOneSideIsRefused() {
        StringWriter errors = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(errors, true))
                .execute("ab", "--runs", "2", "--without-cmd", "true", "--with-cmd", "false", "--with-env",
                        "LD_LIBRARY_PATH=/opt/new", "--with-env", "LD_LIBRARY_PATH=/opt/old");

        assertThat(status).isEqualTo(2);
        assertThat(errors.toString()).contains("--with-env sets LD_LIBRARY_PATH twice ('/opt/new' and '/opt/old'); "
                + "give each variable once");
    }

    private void assertRejected(String message, String... flags) {
        List<String> args = new java.util.ArrayList<>(List.of("ab", "--runs", "2", "--without-cmd", "true",
                "--with-cmd", "false"));
        for (int i = 0; i < flags.length; i += 2) {
            int at = args.indexOf(flags[i]);
            if (at >= 0) {
                args.set(at + 1, flags[i + 1]);
            } else {
                args.addAll(List.of(flags[i], flags[i + 1]));
            }
        }
        StringWriter errors = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(errors, true))
                .execute(args.toArray(String[]::new));
        assertThat(status).as(String.join(" ", args)).isEqualTo(2);
        assertThat(errors.toString()).contains(message);
    }

    private int execute(String... args) {
        return PerfLabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    }
}
