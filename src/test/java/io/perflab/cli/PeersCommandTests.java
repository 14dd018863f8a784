package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.experiment.ExperimentJson;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeersCommandTests extends CommandLineTests {

    @TempDir
    Path directory;

    @Test
    void runsEveryStackInterleavedInFreshJvmsAndPrintsTheRatios() throws IOException {
        Path file = directory.resolve("peers.json");

        int status = execute("peers", "--runs", "2", "--client-threads", "2", "--server-reactors", "1",
                "--warmup-seconds", "0.2", "--run-seconds", "0.3",
                "--jvm-args", "-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1",
                "--out", file.toString());

        assertThat(status).as(err.toString()).isZero();
        List<TrialResult> trials = ExperimentJson.readTrials(Files.readString(file));
        assertThat(trials).extracting(TrialResult::variant)
                .containsExactly("perflab", "grpc", "netty", "perflab", "grpc", "netty");
        assertThat(trials).allMatch(TrialResult::ok);
        assertThat(trials).allSatisfy(t -> assertThat(t.environment().get("stack")).isEqualTo(t.variant()));
        assertThat(trials.get(1).environment().get("workload")).startsWith("stack=grpc mode=sync clientThreads=2");
        assertThat(trials.get(0).metrics()).containsKeys(MetricKeys.ENGINE.toArray(String[]::new));
        Map<String, Object> json = RunnerJson.mapper().readValue(Files.readString(file), Map.class);
        assertThat(json.get("experiment").toString()).contains("perflab", "grpc", "netty", "runsPerVariant=2");
        String printed = out.toString();
        assertThat(printed).contains("trial 1/6 perflab OK", "trial 6/6 netty", "perflab/grpc [95% CI]",
                "perflab/netty [95% CI]", "Successful trials: perflab 2, grpc 2, netty 2",
                "perflab requests/s >= 1.5 x grpc", "perflab CPU per request <= 0.7 x grpc",
                "perflab requests/s >= 0.85 x netty");
        for (String metric : PeersSummary.METRICS) {
            assertThat(printed).containsPattern("(?m)^" + metric + " +[0-9.e+]+ +[0-9.e+]+ +[0-9.e+]+ +[0-9.]+ \\[");
        }
    }

    @Test
    void badFlagsExitTwoNamingTheFlag() {
        assertRejected("Missing required option: '--runs=N'", "peers");
        assertRejected("--runs must be ≥ 2", "peers", "--runs", "1");
        // three billion trials were an int overflow and a stack trace (IllegalArgumentException: Illegal Capacity)
        assertRejected("--runs must be at most 1000000, got 1000000000", "peers", "--runs", "1000000000",
                "--no-fast-start");
        assertRejected("--stack picks one stack; peers runs every stack", "peers", "--runs", "2", "--stack", "grpc");
        assertRejected("--encryption: is supported with the perflab stack only, got grpc", "peers", "--runs",
                "2", "--encryption");
        assertRejected("'--mode': must be sync or async, got 'batch'", "peers", "--runs", "2", "--mode", "batch");
        assertRejected("--cooldown must be a number of seconds, got 'soon'", "peers", "--runs", "2", "--cooldown",
                "soon");
        assertRejected("Unknown options: '--with'", "peers", "--runs", "2", "--with", "completion=monitor");
    }

    @Test
    void ratiosAndGoalsComeFromTheMeansWithTheirIntervals() {
        List<TrialResult> results = new ArrayList<>();
        double[][] reqs = {{200, 210, 190, 205}, {100, 104, 97, 99}, {220, 215, 225, 230}};
        double[][] cpu = {{10, 10.5, 9.5, 10.2}, {25, 26, 24, 25.5}, {9, 9.2, 8.8, 9.1}};
        String[] stacks = {"perflab", "grpc", "netty"};
        for (int run = 0; run < 4; run++) {
            for (int s = 0; s < 3; s++) {
                results.add(new TrialResult(stacks[s], results.size(), TrialStatus.OK, null, null, 1,
                        Map.of(MetricKeys.REQS_PER_SEC, reqs[s][run], MetricKeys.CPU_US_PER_REQ, cpu[s][run]),
                        Map.of(), null));
            }
        }
        results.add(new TrialResult("grpc", 12, TrialStatus.FAILED, null, null, 1, Map.of(), Map.of(), "crashed"));

        String table = PeersSummary.format(results);

        // SciPy 1.17.1: Fieller's interval with Welch's df and t quantile, p from ttest_ind(equal_var=False):
        // reqs perflab/grpc 2.0125 [1.8670, 2.1652] p 4.3145e-05; perflab/netty 0.9045 [0.8477, 0.9636] p 0.0085129;
        // cpu perflab/grpc 0.4000 [0.3718, 0.4298]
        assertThat(table).contains("Successful trials: perflab 4, grpc 4, netty 4", "2.013 [1.867, 2.165]",
                "4.315e-05", "0.904 [0.848, 0.964]", "0.008513", "0.400 [0.372, 0.430]");
        assertThat(table).containsPattern("perflab requests/s >= 1.5 x grpc +2\\.013 \\[[0-9.]+, [0-9.]+\\] +met");
        assertThat(table).containsPattern("perflab CPU per request <= 0.7 x grpc +0\\.400 \\[[0-9.]+, [0-9.]+\\] +met");
        // 0.904 [0.848, 0.964]: the interval straddles the goal's 0.85
        assertThat(table).contains("perflab requests/s >= 0.85 x netty       0.904 [0.848, 0.964]       not settled");
        // a metric no trial measured: the reason, never NaN
        assertThat(table).containsPattern("(?m)^latency_p99_us +- +- +- +n/a \\(n < 2\\)").doesNotContain("NaN");
    }
}
