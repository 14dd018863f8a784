package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.ParsedMetric;
import org.junit.jupiter.api.Test;

/** What a command run printed, read as an upload of one side. */
class OutputMetricsReaderTests {

    private final OutputMetricsReader reader = new OutputMetricsReader();

    @Test
    void knowsTheUploadFormats() {
        assertThat(reader.formats()).containsExactly("json", "jmh", "gobench", "googlebenchmark", "hyperfine",
                "rpcbench", "csv");
    }

    @Test
    void anRpcBenchReportGivesTheSeedsMetricsWithUnitsDirectionsAndItsSettings() {
        String report = Fixtures.read("rpcbench-perflab.txt");
        String first = report.substring(0, report.indexOf("Mode:", 1));

        MetricsReader.Reading reading = reader.read("rpcbench", first);

        // rpcbench-perflab.txt, first report
        assertThat(reading.metrics().get(MetricKeys.REQS_PER_SEC)).isEqualTo(new ParsedMetric("req/s", true,
                java.util.List.of(9135.95)));
        assertThat(reading.metrics().get(MetricKeys.USER_CPU_US_PER_REQ)).isEqualTo(new ParsedMetric("us", false,
                java.util.List.of(150.225)));
        assertThat(reading.metrics()).containsKeys(MetricKeys.SYS_CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ);
        assertThat(reading.details()).containsEntry("mode", "Sync").containsEntry("client_threads", "4")
                .containsEntry("completion", "notification");
    }

    @Test
    void perfLabsBenchGivesItsSystemCallsAndPageFaultsPerCallWhereItCountedThem() {
        String counted = "Mode:            Sync\nReqs/sec:         38731.2\nCtx Sw. per req:  3.97067\n"
                + "Syscalls per req: 10.1234\nPage faults per req: 0.00783264\n";
        String notCounted = "Mode:            Sync\nReqs/sec:         38731.2\n"
                + "Syscalls per req: not counted (kernel.perf_event_paranoid is 3; 1 or root counts them)\n"
                + "Page faults per req: 0.01\n";

        MetricsReader.Reading reading = reader.read("rpcbench", counted);
        MetricsReader.Reading without = reader.read("rpcbench", notCounted);

        assertThat(reading.metrics().get(MetricKeys.SYSCALLS_PER_REQ)).isEqualTo(new ParsedMetric("count", false,
                java.util.List.of(10.1234)));
        assertThat(reading.metrics().get(MetricKeys.PAGE_FAULTS_PER_REQ).values()).containsExactly(0.00783264);
        assertThat(without.metrics()).doesNotContainKey(MetricKeys.SYSCALLS_PER_REQ)
                .containsKeys(MetricKeys.REQS_PER_SEC, MetricKeys.PAGE_FAULTS_PER_REQ);
    }

    @Test
    void goCountRunsAreTheValuesOfOneTrialAndTheMachineIsADetail() {
        MetricsReader.Reading reading = reader.read("gobench", Fixtures.read("gobench.txt"));

        // gobench.txt: -count 5 of BenchmarkJoin-2
        ParsedMetric join = reading.metrics().get("Join:ns/op");
        assertThat(join.values()).containsExactly(910.9, 924.2, 324.1, 451.4, 356.5);
        assertThat(join.mean()).isCloseTo(593.42, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(join.higherIsBetter()).isFalse();
        assertThat(reading.metrics().get("Parse/size=10:MB/s").higherIsBetter()).isTrue();
        assertThat(reading.details()).containsEntry("goos", "linux").containsEntry("pkg", "example.com/gofix");
    }

    /**
     * An agent reads its command's output and posts what it read; the service holds what it posts to the reader's
     * rules. A negative value is refused of exactly the metrics whose reading refuses one.
     */
    @Test
    void aNegativeValueIsRefusedOfTheMetricsWhoseReadingRefusesOne() {
        // Go: the units it measures itself, not b.ReportMetric's own
        assertThatThrownBy(() -> reader.read("gobench", "BenchmarkX-2  100  -12 ns/op\n"))
                .hasMessageContaining("ns/op as Go measures it cannot be");
        assertThat(reader.read("gobench", "BenchmarkX-2  100  12 ns/op  -0.5 delta/op\n").metrics()
                .get("X:delta/op").values()).containsExactly(-0.5);
        assertThat(reader.negativeRefusal("gobench", "X:ns/op", "ns/op"))
                .hasValue("ns/op as Go measures it cannot be");
        assertThat(reader.negativeRefusal("gobench", "X:MB/s", "MB/s")).isPresent();
        assertThat(reader.negativeRefusal("gobench", "X:delta/op", "delta/op")).isEmpty();

        // rpc-bench: its rates, latencies and GC figures, not its CPU per request
        assertThatThrownBy(() -> reader.read("rpcbench", "Mode:            Sync\nReqs/sec:         -5\n"))
                .hasMessageContaining("is negative");
        assertThat(reader.read("rpcbench", "Mode:            Sync\nReqs/sec:         5\n"
                + "User CPU per req: -1.5us\n").metrics().get(MetricKeys.USER_CPU_US_PER_REQ).values())
                .containsExactly(-1.5);
        assertThat(reader.negativeRefusal("rpcbench", "reqs_per_sec", "req/s")).isPresent();
        assertThat(reader.negativeRefusal("rpcbench", "mode=Async,call_concurrency=60:latency_p99_us", "us"))
                .hasValue("latency_p99_us as rpc-bench writes it cannot be");
        assertThat(reader.negativeRefusal("rpcbench", "user_cpu_us_per_req", "us")).isEmpty();

        // JMH: the primary score, keyed by its benchmark and parameters (a value may hold a colon), not a
        // secondary metric
        MetricsReader.Reading jmh = reader.read("jmh", Fixtures.read("jmh.json"));
        assertThat(jmh.metrics().keySet()).anySatisfy(key -> assertThat(key).doesNotContain(":"))
                .anySatisfy(key -> assertThat(key).contains(":"));
        jmh.metrics().forEach((key, metric) -> assertThat(reader.negativeRefusal("jmh", key, metric.unit())
                .isPresent()).as(key).isEqualTo(!key.contains(":")));
        assertThat(reader.negativeRefusal("jmh", "Bench.fetch[url=http://x]", "ops/s")).isPresent();
        assertThat(reader.negativeRefusal("jmh", "Bench.fetch[url=http://x]:gc.count", "counts")).isEmpty();

        // Google Benchmark: its times and rates, not a user's counters
        MetricsReader.Reading google = reader.read("googlebenchmark", Fixtures.read("googlebenchmark.json"));
        google.metrics().forEach((key, metric) -> assertThat(reader.negativeRefusal("googlebenchmark", key,
                metric.unit()).isPresent()).as(key).isEqualTo(key.matches(".*:(real_time|cpu_time|items_per_second|"
                + "bytes_per_second)")));
        assertThat(reader.negativeRefusal("googlebenchmark", "BM_a:real_time", "ns")).isPresent();
        assertThat(reader.negativeRefusal("googlebenchmark", "BM_a:widgets", null)).isEmpty();

        // the other formats read any sign
        for (String format : new String[] {"hyperfine", "csv", "json", "xml"}) {
            assertThat(reader.negativeRefusal(format, "wall", "ms")).as(format).isEmpty();
        }
    }

    @Test
    void outputThatIsNotInTheFormatOrHoldsTwoSidesIsRefusedWithTheAdaptersMessage() {
        assertThatThrownBy(() -> reader.read("jmh", Fixtures.read("gobench.txt")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The upload is not in the format 'jmh': expected JMH JSON")
                .hasMessageContaining("(it looks like gobench)");
        assertThatThrownBy(() -> reader.read("hyperfine", Fixtures.read("hyperfine.json")))
                .hasMessageContaining("holds both sides");
        assertThatThrownBy(() -> reader.read("csv", "metric,value\nlatency,NaN\n"))
                .hasMessageContaining("latency");
        assertThatThrownBy(() -> reader.read("xml", "<a/>")).hasMessage("unknown metrics format 'xml'; one of "
                + UploadFormat.labels());
    }
}
