package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.trial.MetricKeys;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchCommandTests extends CommandLineTests {

    private static final String[] SHORT = {"--client-threads", "2", "--server-reactors", "1", "--warmup-seconds",
        "0.2", "--run-seconds", "0.5"};

    @Test
    void printsRpcBenchReportThenPerfLabLines() {
        int status = execute(concat(new String[] {"bench"}, SHORT));

        assertThat(status).isZero();
        assertThat(out.toString()).startsWith("Mode:            Sync\nClient threads:  2\nWorker threads:  1\n"
                + "Server reactors: 1\nEncryption:      0\n----------------------------------\nReqs/sec:         ");
        assertThat(out.toString()).containsPattern("User CPU per req: [0-9.]+us\n")
                .containsPattern("Sys CPU per req:  [0-9.]+us\n").containsPattern("Ctx Sw. per req:  [0-9.]+\n")
                .contains("Alloc per req:", "Latency p99:", "GC:", "client and server threads");
    }

    @Test
    void jsonHoldsEveryMetricAndTheEnvironment() {
        int status = execute(concat(new String[] {"bench", "--json", "--mode", "async", "--set", "allocator=unpooled"},
                SHORT));

        assertThat(status).isZero();
        Map<String, Object> json = RunnerJson.mapper().readValue(out.toString().trim(), Map.class);
        assertThat(json).containsKeys(MetricKeys.ENGINE.toArray(String[]::new)).containsKey("environment");
        @SuppressWarnings("unchecked")
        Map<String, Object> environment = (Map<String, Object>) json.get("environment");
        assertThat(environment).containsKeys("jvm_version", "jvm_flags", "host", "cpu_count", "kernel",
                "engine_options", "workload");
        assertThat(environment.get("engine_options").toString()).contains("allocator=unpooled");
        assertThat(environment.get("workload").toString()).contains("mode=async");
        assertThat(json.get("cpu_split_source")).isIn("sampled", "tick").isEqualTo(environment.get("cpu_split_source"));
        assertThat(json).containsKey(MetricKeys.PAGE_FAULTS_PER_REQ);
        assertThat(json.containsKey(MetricKeys.SYSCALLS_PER_REQ)).as("syscalls_per_req, or why not")
                .isNotEqualTo(environment.containsKey("syscalls_not_counted"));
        assertThat(json.containsKey(MetricKeys.INSTRUCTIONS_PER_REQ)).as("instructions_per_req, or why not")
                .isNotEqualTo(environment.containsKey("hardware_not_counted"))
                .isEqualTo(json.containsKey(MetricKeys.CYCLES_PER_REQ));
    }

    @Test
    void tickSplitWithoutSyscallOrHardwareCountsTouchesNoPerfEventAndSaysSo() {
        int status = execute(concat(new String[] {"bench", "--json", "--cpu-split", "tick", "--count-syscalls",
            "false", "--count-hardware", "false"}, SHORT));

        assertThat(status).as(err.toString()).isZero();
        Map<String, Object> json = RunnerJson.mapper().readValue(out.toString().trim(), Map.class);
        assertThat(json).containsEntry("cpu_split_source", "tick").doesNotContainKey(MetricKeys.SYSCALLS_PER_REQ);
        @SuppressWarnings("unchecked")
        Map<String, Object> environment = (Map<String, Object>) json.get("environment");
        assertThat(environment).containsEntry("cpu_split_reason", "sampling turned off (cpu split mode tick)")
                .containsEntry("syscalls_not_counted", "counting turned off (perflab.countSyscalls=false)")
                .containsEntry("hardware_not_counted", "counting turned off (perflab.countHardware=false)");
    }

    @Test
    void reportSaysWhereTheSplitComesFromAndCountsKernelWork() {
        int status = execute(concat(new String[] {"bench"}, SHORT));

        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).containsPattern("User/sys split:   .*cpu_split_source=(sampled|tick)")
                .containsPattern("Syscalls per req: ([0-9.]+|not counted \\(.+\\))\n")
                .containsPattern("Page faults per req: [0-9.e+-]+\n");
    }

    @Test
    void severalWindowsAfterOneWarmupReportTheirSpread() {
        int status = execute(concat(new String[] {"bench", "--windows", "3"}, SHORT));

        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).containsPattern("window  1/3  reqs/s [0-9]+  user [0-9.]+us  sys [0-9.]+us  cpu "
                + "[0-9.]+us  ctxsw [0-9.]+ per req\n").contains("window  3/3", "3 windows of ", "in one JVM after ",
                "metric", "user_cpu_us_per_req", "cpu_us_per_req", "reqs_per_sec", "across the windows of this JVM");
        assertThat(err.toString()).contains("window 1 of 3", "window 3 of 3").containsOnlyOnce("warming up");
    }

    @Test
    void severalWindowsInJsonAreOneObjectEach() {
        int status = execute(concat(new String[] {"bench", "--json", "--windows", "2"}, SHORT));

        assertThat(status).as(err.toString()).isZero();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> windows = (List<Map<String, Object>>) RunnerJson.mapper()
                .readValue(out.toString().trim(), Map.class).get("windows");
        assertThat(windows).hasSize(2).allSatisfy(window -> assertThat(window)
                .containsKeys(MetricKeys.ENGINE.toArray(String[]::new)).containsKey("environment"));
        @SuppressWarnings("unchecked")
        Map<String, Object> environment = (Map<String, Object>) windows.get(1).get("environment");
        assertThat(environment).containsKeys("jvm_version", "host", "workload", "measured_seconds",
                "cpu_time_accounting");
    }

    @Test
    void badValuesExitTwoNamingTheFlagAndWhatIsAllowed() {
        assertThat(execute("bench", "--windows", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--windows must be between 1 and 1000", "got 0");

        // the last one won, silently (here a run of a tenth of a second)
        assertThat(execute("bench", "--set", "completion=bogus", "--set", "completion=monitor", "--warmup-seconds",
                "0", "--run-seconds", "0.1")).isEqualTo(2);
        assertThat(err.toString()).contains("--set sets completion twice ('bogus' and 'monitor'); give each option "
                + "once");

        assertThat(execute("bench", "--mode", "batch")).isEqualTo(2);
        assertThat(err.toString()).contains("'--mode': must be sync or async, got 'batch'");

        assertThat(execute("bench", "--run-seconds", "-1")).isEqualTo(2);
        assertThat(err.toString()).contains("'--run-seconds': must not be negative, got -1");

        assertThat(execute("bench", "--run-seconds", "0.05")).isEqualTo(2);
        assertThat(err.toString()).contains("--run-seconds: must be greater than or equal to 0.1, got 0.05");
        assertThat(execute("bench", "--run-seconds", "3601")).isEqualTo(2);
        assertThat(err.toString()).contains("--run-seconds: must be less than or equal to 3600, got 3601");
        assertThat(execute("bench", "--run-seconds", "5000")).isEqualTo(2);
        assertThat(err.toString()).contains("--run-seconds: must be less than or equal to 3600, got 5000");
        assertThat(execute("bench", "--run-seconds", "100000")).isEqualTo(2);
        assertThat(err.toString()).contains("--run-seconds: must be less than or equal to 3600, got 100000");
        assertThat(execute("bench", "--warmup-seconds", "100000")).isEqualTo(2);
        assertThat(err.toString()).contains("'--warmup-seconds': must be at most 600 s, got 100000");

        assertThat(execute("bench", "--set", "completion=telepathy")).isEqualTo(2);
        assertThat(err.toString()).contains("--set: ", "completion", "notification", "monitor", "future");

        assertThat(execute("bench", "--set", "nagle=true")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown engine option 'nagle'", "allocator");

        assertThat(execute("bench", "--cpu-split", "perf")).isEqualTo(2);
        assertThat(err.toString()).contains("--cpu-split must be tick, sampled or auto, got 'perf'");

        assertThat(execute("bench", "--cpu-split-hz", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--cpu-split-hz: the cpu-clock sampling rate must be between 1 and "
                + "100000 Hz, got 0");
    }

    @Test
    void runsAnotherStackAndSaysWhichInTheReport() {
        int status = execute(concat(new String[] {"bench", "--stack", "grpc"}, SHORT));

        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Reqs/sec:", "Stack:            grpc").doesNotContain("Engine options:");
    }

    @Test
    void badStacksAndEngineOptionsOfAnotherStackExitTwoNamingTheFlag() {
        assertThat(execute("bench", "--stack", "zeromq")).isEqualTo(2);
        assertThat(err.toString()).contains("'--stack': must be perflab, grpc or netty, got 'zeromq'");

        assertThat(execute("bench", "--stack", "grpc", "--set", "completion=monitor")).isEqualTo(2);
        assertThat(err.toString()).contains("--set sets engine options, which apply to --stack perflab only; "
                + "got --set completion=monitor with --stack grpc");

        assertThat(execute("bench", "--stack", "netty", "--encryption")).isEqualTo(2);
        assertThat(err.toString()).contains("--encryption: is supported with the perflab stack only, got netty");
    }

    /**
     * {@code --set tls=false} with {@code --encryption} is refused naming both: the encryption won, silently. The case
     * carries a second mistake that the command refuses too, so that nothing runs should the first go unnoticed.
     */
    @Test
    void encryptionAndAnEngineOptionWithoutTlsAreRefusedNamingBoth() {
        assertThat(execute("bench", "--set", "tls=false", "--encryption", "--client-threads", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--set tls=false and --encryption contradict each other");
    }

    /**
     * Flags that have no effect, or no bound, are refused naming them. Each case carries a second mistake that the
     * command refuses too, so that nothing runs should the first go unnoticed.
     */
    @Test
    void flagsWithoutEffectOrBoundAreRefusedNamingThem() {
        // the rate was ignored: the tick split samples nothing
        assertThat(execute("bench", "--cpu-split", "tick", "--cpu-split-hz", "50", "--client-threads", "0"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--cpu-split-hz", "--cpu-split tick");
        // no bound: a run of 2³¹ − 1 windows, each kept in memory
        assertThat(execute("bench", "--windows", "2147483647", "--client-threads", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--windows must be between 1 and 1000", "got 2147483647");
    }

    static String[] concat(String[] a, String[] b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
