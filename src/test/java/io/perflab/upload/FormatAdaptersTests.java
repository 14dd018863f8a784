package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Each adapter on its real fixture; counts are taken from the fixture files as noted. */
class FormatAdaptersTests {

    private final UploadFormats formats = new UploadFormats();

    private Map<String, MetricSamples> one(ParsedUpload upload, String side) {
        assertThat(upload.variants()).containsOnlyKeys(side);
        return upload.variants().get(side).metrics();
    }

    @Test
    void jmhTakesEveryForkAndIterationAndSecondaryMetrics() {
        ParsedUpload upload = formats.parse(Fixtures.read("jmh.json"), UploadFormat.JMH, "with", null);
        Map<String, MetricSamples> metrics = one(upload, "with");
        // jmh.json: 4 entries (builder/concat × parts 8/64), each primary + 4 secondary metrics from -prof gc
        assertThat(metrics).hasSize(20);
        // "forks": 2, "measurementIterations": 3 → rawData [[3 values], [3 values]]
        assertThat(metrics.get("StringJoinBenchmark.builder[parts=8]").values()).hasSize(6);
        assertThat(metrics.get("StringJoinBenchmark.builder[parts=8]").unit()).isEqualTo("ns/op");
        assertThat(metrics.get("StringJoinBenchmark.builder[parts=8]").higherIsBetter()).isFalse();
        assertThat(metrics.get("StringJoinBenchmark.concat[parts=64]:gc.alloc.rate.norm").values()).hasSize(6);
        assertThat(metrics.get("StringJoinBenchmark.concat[parts=64]:gc.alloc.rate.norm").unit()).isEqualTo("B/op");
        // gc.time is reported for the iterations with collections only, and is placed at them
        metrics.values().forEach(m -> assertThat(m.values()).hasSize(6));
        // first rawData value of the first entry, copied from jmh.json
        assertThat(metrics.get("StringJoinBenchmark.builder[parts=8]").values().get(0))
                .isEqualTo(firstJmhValue());
        assertThat(upload.benchmark()).isEqualTo("bench.StringJoinBenchmark");
    }

    private static double firstJmhValue() {
        return JsonContent.read(Fixtures.read("jmh.json")).get(0).get("primaryMetric").get("rawData").get(0).get(0)
                .doubleValue();
    }

    @Test
    void goBenchTakesEveryLineAndEveryUnitColumn() {
        ParsedUpload upload = formats.parse(Fixtures.read("gobench.txt"), UploadFormat.GOBENCH, "without", null);
        Map<String, MetricSamples> metrics = one(upload, "without");
        // gobench.txt: -count 5; Join and Concat report ns/op, B/op, allocs/op; Parse/size=… ns/op, MB/s, digits/op
        assertThat(metrics).hasSize(12);
        metrics.values().forEach(m -> assertThat(m.values()).hasSize(5));
        assertThat(metrics.get("Join:ns/op").values()).containsExactly(910.9, 924.2, 324.1, 451.4, 356.5);
        assertThat(metrics.get("Concat:B/op").values()).containsOnly(1480.0);
        assertThat(metrics.get("Parse/size=1000:MB/s").higherIsBetter()).isTrue();
        assertThat(metrics.get("Parse/size=10:digits/op").higherIsBetter()).isFalse();
        assertThat(upload.benchmark()).isEqualTo("example.com/gofix");
        assertThat(upload.machine()).containsEntry("goos", "linux").containsEntry("goarch", "amd64")
                .containsEntry("cpu", "AMD EPYC").containsEntry("pkg", "example.com/gofix")
                .containsEntry("gomaxprocs", 2);
    }

    @Test
    void googleBenchmarkTakesRepetitionsAndIgnoresAggregates() {
        ParsedUpload upload = formats.parse(Fixtures.read("googlebenchmark.json"), UploadFormat.GOOGLEBENCHMARK,
                "with", null);
        Map<String, MetricSamples> metrics = one(upload, "with");
        // googlebenchmark.json: 3 benchmarks × 4 "iteration" entries (repetitions 4) + 4 aggregates each;
        // BM_StringAppend sets items_per_second, BM_VectorPush does not
        assertThat(metrics).containsOnlyKeys("BM_StringAppend/8:real_time", "BM_StringAppend/8:cpu_time",
                "BM_StringAppend/8:items_per_second", "BM_StringAppend/64:real_time", "BM_StringAppend/64:cpu_time",
                "BM_StringAppend/64:items_per_second", "BM_VectorPush:real_time", "BM_VectorPush:cpu_time");
        metrics.values().forEach(m -> assertThat(m.values()).hasSize(4));
        assertThat(metrics.get("BM_StringAppend/8:real_time").values().get(0)).isEqualTo(252.31865547058624);
        assertThat(metrics.get("BM_StringAppend/8:items_per_second").higherIsBetter()).isTrue();
        assertThat(upload.benchmark()).isEqualTo("bm");
    }

    @Test
    void hyperfineTwoCommandsAreWithoutThenWith() {
        ParsedUpload upload = formats.parse(Fixtures.read("hyperfine.json"), UploadFormat.HYPERFINE, "with", null);
        // hyperfine.json: --runs 12 for 'sort --version' then 'gzip --version'; user/system are means (skipped)
        assertThat(upload.variants()).containsOnlyKeys("without", "with");
        assertThat(upload.variants().get("without").label()).isEqualTo("sort --version");
        assertThat(upload.variants().get("with").label()).isEqualTo("gzip --version");
        assertThat(upload.variants().get("without").metrics()).containsOnlyKeys("time");
        assertThat(upload.variants().get("without").metrics().get("time").values()).hasSize(12);
        assertThat(upload.variants().get("with").metrics().get("time").values()).hasSize(12);
        assertThat(upload.variants().get("without").metrics().get("time").values().get(0))
                .isEqualTo(0.0050050170000000005);
    }

    @Test
    void rpcBenchReadsKuduReportsWithGlogPrefixes() {
        ParsedUpload upload = formats.parse(Fixtures.read("rpcbench-kudu.txt"), UploadFormat.RPCBENCH, "with", null);
        Map<String, MetricSamples> metrics = one(upload, "with");
        // rpcbench-kudu.txt: two reports (seed 001's without/with numbers)
        assertThat(metrics).containsOnlyKeys("reqs_per_sec", "user_cpu_us_per_req", "sys_cpu_us_per_req",
                "ctx_switches_per_req");
        assertThat(metrics.get("user_cpu_us_per_req").values()).containsExactly(31.7217, 32.9851);
        assertThat(metrics.get("reqs_per_sec").values()).containsExactly(155254.0, 155015.0);
        assertThat(metrics.get("ctx_switches_per_req").values()).containsExactly(3.46345, 3.48085);
    }

    @Test
    void rpcBenchReadsPerfLabBenchReportsWithExtraLines() {
        ParsedUpload upload = formats.parse(Fixtures.read("rpcbench-perflab.txt"), null, "with", null);
        Map<String, MetricSamples> metrics = one(upload, "with");
        // rpcbench-perflab.txt: three reports, each with 4 rpc-bench lines and 8 PerfLab values
        assertThat(metrics).hasSize(12);
        metrics.values().forEach(m -> assertThat(m.values()).hasSize(3));
        // values copied from rpcbench-perflab.txt
        assertThat(metrics.get("involuntary_ctx_switches_per_req").values()).containsExactly(0.893844, 1.43812,
                1.89134);
        assertThat(metrics.get("gc_pause_ms").values()).containsExactly(67.0, 0.0, 0.0);
        assertThat(metrics.get("latency_p999_us").values()).containsExactly(8593.41, 4837.38, 9084.93);
    }

    @Test
    void csvSplitsRowsByVariant() {
        ParsedUpload upload = formats.parse(Fixtures.read("samples.csv"), null, "with", null);
        // samples.csv: 3 rows per metric and variant
        assertThat(upload.variants()).containsOnlyKeys("without", "with");
        assertThat(upload.variants().get("with").metrics().get("parse_ns").values())
                .containsExactly(1131.4, 1140.8, 1127.3);
        assertThat(upload.variants().get("without").metrics().get("alloc_bytes").unit()).isEqualTo("B");
    }

    @Test
    void detectsEveryFixtureFormat() {
        assertThat(UploadFormats.detect(Fixtures.read("jmh.json"))).contains(UploadFormat.JMH);
        assertThat(UploadFormats.detect(Fixtures.read("gobench.txt"))).contains(UploadFormat.GOBENCH);
        assertThat(UploadFormats.detect(Fixtures.read("googlebenchmark.json"))).contains(UploadFormat.GOOGLEBENCHMARK);
        assertThat(UploadFormats.detect(Fixtures.read("hyperfine.json"))).contains(UploadFormat.HYPERFINE);
        assertThat(UploadFormats.detect(Fixtures.read("rpcbench-kudu.txt"))).contains(UploadFormat.RPCBENCH);
        assertThat(UploadFormats.detect(Fixtures.read("samples.csv"))).contains(UploadFormat.CSV);
        assertThat(UploadFormats.detect("{\"benchmark\":\"b\",\"metrics\":{}}")).contains(UploadFormat.JSON);
    }

    /**
     * "Benchmark" and a lower-case letter is no result line of Go's, and "Reqs/sec:" within a line's text no line of
     * an rpc-bench report: text of neither was taken for one when the format was not named.
     */
    @Test
    void detectsALineOnlyWhereItsFormatsReaderWouldReadOne() {
        assertThat(UploadFormats.detect("Benchmarkfoo 1 2 x/y\n")).isEmpty();
        assertThat(UploadFormats.detect("BenchmarkFoo-8 1 2 ns/op\n")).contains(UploadFormat.GOBENCH);
        assertThat(UploadFormats.detect("Benchmark 1 2 ns/op\n")).contains(UploadFormat.GOBENCH);
        assertThat(UploadFormats.detect("Benchmark_x/y-2 10 2.5 ns/op\n")).contains(UploadFormat.GOBENCH);
        assertThat(UploadFormats.detect("note: Reqs/sec: 5\n")).isEmpty();
        assertThat(UploadFormats.detect("  Reqs/sec:  5\n")).contains(UploadFormat.RPCBENCH);
        assertThat(UploadFormats.detect("I0526 22:41:17.603118 31187 rpc-bench.cc:260] Reqs/sec:  38731.2\r\n"))
                .contains(UploadFormat.RPCBENCH);
        assertThat(UploadFormats.detect("metric,value\nserver Reqs/sec: x,5\n")).as("a CSV row, not a report's")
                .contains(UploadFormat.CSV);
    }

    @Test
    void wrongFormatSaysWhatWasExpectedAndFound() {
        assertThatThrownBy(() -> formats.parse(Fixtures.read("gobench.txt"), UploadFormat.JMH, "with", null))
                .isInstanceOf(UploadFormatException.class)
                .hasMessageContaining("expected JMH JSON")
                .hasMessageContaining("found text starting 'goos: linux' (it looks like gobench)");
        assertThatThrownBy(() -> formats.parse(Fixtures.read("jmh.json"), UploadFormat.GOBENCH, "with", null))
                .hasMessageContaining("expected Go benchmark output")
                .hasMessageContaining("found a JSON array of 4 elements (it looks like jmh)");
        assertThatThrownBy(() -> formats.parse(Fixtures.read("hyperfine.json"), UploadFormat.GOOGLEBENCHMARK,
                "with", null))
                .hasMessageContaining("expected Google Benchmark JSON")
                .hasMessageContaining("found a JSON object with the fields [results] (it looks like hyperfine)");
    }

    @Test
    void nativeJsonKeepsNonFiniteValuesForValidationToName() {
        ParsedUpload upload = formats.parse("{\"benchmark\":\"b\",\"metrics\":{\"t\":{\"values\":[1, NaN]}}}",
                UploadFormat.JSON, "with", null);
        assertThat(upload.variants().get("with").metrics().get("t").values().get(1)).isNaN();
    }

    // ---- the adapter defects of issue 18, each on real (or faithfully shaped) tool output ----

    @Test
    void csvRateUnitsAreHigherIsBetterLikeTheOtherFormats() {
        ParsedUpload upload = formats.parse("""
                metric,value,variant,unit
                throughput,1000,without,ops/s
                throughput,1073,with,ops/s
                bandwidth,52.1,with,MB/s
                latency,12.5,with,ms
                """, UploadFormat.CSV, "with", null);
        assertThat(upload.variants().get("with").metrics().get("throughput").higherIsBetter()).isTrue();
        assertThat(upload.variants().get("with").metrics().get("bandwidth").higherIsBetter()).isTrue();
        // not a rate: the metric's known definition decides, else lower is better
        assertThat(upload.variants().get("with").metrics().get("latency").higherIsBetter()).isNull();
    }

    @Test
    void jmhRaggedGcTimeSitsBesideItsForkAndIteration() {
        Map<String, MetricSamples> metrics = one(formats.parse(Fixtures.read("jmh.json"), UploadFormat.JMH, "with",
                null), "with");
        // jmh.json, fork 0 then fork 1, 3 iterations each: gc.count and the gc.time JMH reported for the
        // iterations whose count changed (JMH's GCProfiler omits gc.time where nothing was collected: 0 ms)
        // builder[parts=8]:  gc.count [[0,0,0],[1,2,0]], gc.time [[], [10,8]]
        assertThat(metrics.get("StringJoinBenchmark.builder[parts=8]:gc.time").values())
                .containsExactly(0.0, 0.0, 0.0, 10.0, 8.0, 0.0);
        // builder[parts=64]: gc.count [[2,1,0],[1,0,0]], gc.time [[13,5], [8]]
        assertThat(metrics.get("StringJoinBenchmark.builder[parts=64]:gc.time").values())
                .containsExactly(13.0, 5.0, 0.0, 8.0, 0.0, 0.0);
        // concat[parts=8]:   gc.count [[0,1,1],[0,0,2]], gc.time [[26,4], [10]]
        assertThat(metrics.get("StringJoinBenchmark.concat[parts=8]:gc.time").values())
                .containsExactly(0.0, 26.0, 4.0, 0.0, 0.0, 10.0);
        // concat[parts=64]:  gc.count [[3,0,0],[0,0,0]], gc.time [[17], []]
        assertThat(metrics.get("StringJoinBenchmark.concat[parts=64]:gc.time").values())
                .containsExactly(17.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    }

    @Test
    void jmhSecondaryMetricThatCannotBePlacedIsLeftOutWithAWarning() {
        // jmh.json with gc.time renamed: a profiler metric reported for some iterations, with nothing to say which
        JsonNode root = JsonContent.read(Fixtures.read("jmh.json"));
        for (JsonNode entry : root) {
            ObjectNode secondary = (ObjectNode) entry.get("secondaryMetrics");
            secondary.set("custom.events", secondary.remove("gc.time"));
        }
        ParsedUpload upload = formats.parse(root.toString(), UploadFormat.JMH, "with", null);
        assertThat(one(upload, "with")).doesNotContainKey("StringJoinBenchmark.builder[parts=8]:custom.events");
        assertThat(upload.warnings()).anySatisfy(w -> assertThat(w)
                .contains("'StringJoinBenchmark.builder[parts=8]:custom.events'").contains("left out"));
    }

    @Test
    void rpcBenchReportsOfDifferentConfigurationsAreSeparateBenchmarks() {
        ParsedUpload upload = formats.parse(Fixtures.read("rpcbench-modes.txt"), UploadFormat.RPCBENCH, "with",
                null);
        Map<String, MetricSamples> metrics = one(upload, "with");
        // rpcbench-modes.txt: PerfLab's bench --mode sync, async, sync, async; async reports add Call concurrency
        assertThat(metrics).doesNotContainKey("reqs_per_sec");
        assertThat(metrics.get("mode=Sync:reqs_per_sec").values()).containsExactly(9507.51, 10009.8);
        assertThat(metrics.get("mode=Async,call_concurrency=60:reqs_per_sec").values())
                .containsExactly(56781.8, 30662.3);
        assertThat(metrics.get("mode=Async,call_concurrency=60:reqs_per_sec").higherIsBetter()).isTrue();
        assertThat(metrics.get("mode=Sync:user_cpu_us_per_req").unit()).isEqualTo("us");
        assertThat(metrics.get("mode=Sync:user_cpu_us_per_req").higherIsBetter()).isFalse();
        // what all four share is the side's configuration
        assertThat(upload.variants().get("with").configuration()).containsEntry("client_threads", "4")
                .containsEntry("worker_threads", "1").containsEntry("stack", "perflab")
                .containsEntry("completion", "notification").doesNotContainKey("mode");
    }

    @Test
    void rpcBenchKeepsTheConfigurationOfReportsThatShareIt() {
        ParsedUpload upload = formats.parse(Fixtures.read("rpcbench-kudu.txt"), UploadFormat.RPCBENCH, "with", null);
        // rpcbench-kudu.txt: both reports Sync, 16 client threads, 1 worker, 4 reactors, no encryption
        assertThat(upload.variants().get("with").configuration()).containsExactly(Map.entry("mode", "Sync"),
                Map.entry("client_threads", "16"), Map.entry("worker_threads", "1"),
                Map.entry("server_reactors", "4"), Map.entry("encryption", "0"));
        assertThat(one(upload, "with")).containsKey("reqs_per_sec");
    }

    @Test
    void goCpuListKeepsEachGomaxprocsApart() {
        ParsedUpload upload = formats.parse(Fixtures.read("gobench-cpu.txt"), null, "with", null);
        Map<String, MetricSamples> metrics = one(upload, "with");
        // gobench-cpu.txt: -count 3 -cpu 1,2,4 (Go prints no suffix for GOMAXPROCS 1)
        assertThat(metrics.get("Join-1:ns/op").values()).containsExactly(58.28, 55.93, 59.70);
        assertThat(metrics.get("Join-2:ns/op").values()).containsExactly(61.40, 54.68, 56.23);
        assertThat(metrics.get("Join-4:ns/op").values()).containsExactly(52.60, 56.90, 74.82);
        assertThat(metrics.get("ParallelJoin-4:ns/op").values()).containsExactly(143.9, 142.1, 82.06);
        assertThat(metrics).doesNotContainKey("Join:ns/op").hasSize(12);
        assertThat(upload.machine()).containsEntry("cpu", "Intel(R) Xeon(R) Processor")
                .containsEntry("pkg", "example.com/gofix").doesNotContainKey("gomaxprocs");
    }

    @Test
    void goFilesOfTwoSidesKeepTheGomaxprocsSuffixWhenEitherRanSeveral() {
        // gobench-cpu.txt ran -cpu 1,2,4; the other side only -cpu 2: alone its lines would be keyed 'Join:ns/op'
        String all = Fixtures.read("gobench-cpu.txt");
        String two = all.lines().filter(line -> !line.startsWith("Benchmark") || line.contains("-2 "))
                .collect(Collectors.joining("\n"));
        assertThat(one(formats.parse(two, UploadFormat.GOBENCH, "with", null), "with")).containsKey("Join:ns/op");
        List<ParsedUpload> sides = formats.parseSides(all, two, UploadFormat.GOBENCH);
        Map<String, MetricSamples> with = one(sides.get(1), "with");
        assertThat(with).containsOnlyKeys("Join-2:ns/op", "Join-2:B/op", "Join-2:allocs/op", "ParallelJoin-2:ns/op");
        assertThat(with.get("Join-2:ns/op").values()).containsExactly(61.40, 54.68, 56.23);
        // the side that ran several keys as it does alone
        assertThat(one(sides.get(0), "without"))
                .isEqualTo(one(formats.parse(all, UploadFormat.GOBENCH, "without", null), "without"));
        // two files that ran one GOMAXPROCS each (2 and 4) are compared as they were: no suffix on either side
        String four = all.lines().filter(line -> !line.startsWith("Benchmark") || line.contains("-4 "))
                .collect(Collectors.joining("\n"));
        assertThat(formats.parseSides(two, four, UploadFormat.GOBENCH)).allSatisfy(side ->
                assertThat(side.variants().values().iterator().next().metrics()).containsKey("Join:ns/op"));
    }

    @Test
    void goPackagesOfOneFileAreKeptApart() {
        // go test -bench . ./... prints one block per package; both packages have a BenchmarkJoin
        String output = "goos: linux\ngoarch: amd64\npkg: example.com/gofix/a\ncpu: AMD EPYC\n"
                + "BenchmarkJoin-2 20 5.5 ns/op\nBenchmarkJoin-2 20 5.6 ns/op\nPASS\nok example.com/gofix/a 1.2s\n"
                + "goos: linux\ngoarch: amd64\npkg: example.com/gofix/b\ncpu: AMD EPYC\n"
                + "BenchmarkJoin-2 20 500 ns/op\nBenchmarkJoin-2 20 510 ns/op\nPASS\nok example.com/gofix/b 1.3s\n";
        ParsedUpload upload = formats.parse(output, null, "with", null);
        Map<String, MetricSamples> metrics = one(upload, "with");
        assertThat(metrics).containsOnlyKeys("a.Join:ns/op", "b.Join:ns/op");
        assertThat(metrics.get("a.Join:ns/op").values()).containsExactly(5.5, 5.6);
        assertThat(metrics.get("b.Join:ns/op").values()).containsExactly(500.0, 510.0);
        assertThat(upload.benchmark()).isEqualTo("example.com/gofix");
        assertThat(upload.machine()).containsEntry("pkg", "example.com/gofix/a, example.com/gofix/b");

        // a side that ran one of the packages keys it as the side that ran both
        String onlyB = output.substring(output.indexOf("goos: linux", 1));
        assertThat(one(formats.parse(onlyB, null, "with", null), "with")).containsOnlyKeys("Join:ns/op");
        List<ParsedUpload> sides = formats.parseSides(output, onlyB, UploadFormat.GOBENCH);
        assertThat(one(sides.get(1), "with")).containsOnlyKeys("b.Join:ns/op");
        assertThat(one(sides.get(0), "without")).containsOnlyKeys("a.Join:ns/op", "b.Join:ns/op");

        // a package that contains another: each keeps the path below their common parent
        String nested = output.replace("example.com/gofix/a", "example.com/gofix")
                .replace("example.com/gofix/b", "example.com/gofix/sub");
        assertThat(one(formats.parse(nested, null, "with", null), "with"))
                .containsOnlyKeys("gofix.Join:ns/op", "gofix/sub.Join:ns/op");
    }

    @Test
    void goSuffixTooLargeForGomaxprocsIsPartOfTheName() {
        // GOMAXPROCS is an int: '-99999999999' cannot be one (it threw NumberFormatException, whose words were sent)
        ParsedUpload upload = formats.parse("BenchmarkParse/id-99999999999 10 5 ns/op\n"
                + "BenchmarkParse/id-99999999999 10 6 ns/op\n", null, "with", null);
        assertThat(one(upload, "with")).containsOnlyKeys("Parse/id-99999999999:ns/op");
        // as a line without a suffix, it ran at GOMAXPROCS 1
        assertThat(upload.machine()).containsEntry("gomaxprocs", 1);
    }

    /** At GOMAXPROCS 1 Go prints no suffix, so a name's own -N was read as one: Read/size-1024 became Read/size. */
    @Test
    void goNameEndingInDigitsKeepsThemWhereTheOtherBenchmarksRanAtGomaxprocs1() {
        ParsedUpload upload = formats.parse("BenchmarkJoin 10 5 ns/op\nBenchmarkRead/size-1024 10 7 ns/op\n"
                + "BenchmarkRead/size-4096 10 9 ns/op\n", null, "with", null);
        assertThat(one(upload, "with")).containsOnlyKeys("Join:ns/op", "Read/size-1024:ns/op",
                "Read/size-4096:ns/op");
        assertThat(upload.machine()).containsEntry("gomaxprocs", 1);
        // -cpu 1,2: the line Go printed without a suffix meets the same benchmark's line at GOMAXPROCS 2
        ParsedUpload cpus = formats.parse("BenchmarkJoin 10 5 ns/op\nBenchmarkJoin-2 10 4 ns/op\n"
                + "BenchmarkRead/size-1024 10 7 ns/op\nBenchmarkRead/size-1024-2 10 6 ns/op\n", null, "with", null);
        assertThat(one(cpus, "with")).containsOnlyKeys("Join-1:ns/op", "Join-2:ns/op", "Read/size-1024-1:ns/op",
                "Read/size-1024-2:ns/op");
        // at GOMAXPROCS 8 every line has the suffix, after the name's own
        ParsedUpload eight = formats.parse("BenchmarkJoin-8 10 5 ns/op\nBenchmarkRead/size-1024-8 10 7 ns/op\n",
                null, "with", null);
        assertThat(one(eight, "with")).containsOnlyKeys("Join:ns/op", "Read/size-1024:ns/op");
        assertThat(eight.machine()).containsEntry("gomaxprocs", 8);
    }

    @Test
    void jsonOfEveryFormatRefusesAKeyGivenTwice() {
        String jmh = "[{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"primaryMetric\":{\"scoreUnit\":\"us/op\","
                + "\"rawData\":[[1,2]],\"rawData\":[[3,4]]}}]";
        // detected as JMH all the same, so that the message says what is wrong rather than "cannot tell the format"
        assertThatThrownBy(() -> formats.parse(jmh, null, "with", null))
                .hasMessageContaining("a key appears twice in one object: \"rawData\"");
    }

    @Test
    void jsonOfEveryFormatRefusesANumberBeyondADoubleQuotingItAsWritten() {
        // 1e400 was read as Infinity and refused as "value 2 is Infinity", which the file does not say; a whole
        // number of 401 digits as "1.00E+400, too large to compare"
        assertThatThrownBy(() -> formats.parse("{\"results\":[{\"command\":\"x\",\"times\":[1, -1e400]}]}",
                null, "with", null)).isInstanceOf(InvalidUploadException.class)
                .hasMessage("The value at results[0].times[1] (line 1, column 40): '-1e400' is beyond the range of a "
                        + "double (about ±1.8e308).");
        assertThatThrownBy(() -> formats.parse("[{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"primaryMetric\":"
                + "{\"scoreUnit\":\"us/op\",\"rawData\":[[1,\n 2.5E+400]]}}]", null, "with", null))
                .isInstanceOf(InvalidUploadException.class).hasMessage("The value at [0].primaryMetric.rawData[0][1] "
                        + "(line 2, column 2): '2.5E+400' is beyond the range of a double (about ±1.8e308).");
        String huge = "1" + "0".repeat(400);
        assertThatThrownBy(() -> formats.parse("{\"context\":{},\"benchmarks\":[{\"name\":\"BM_a\",\"run_type\":"
                + "\"iteration\",\"real_time\":" + huge + ",\"cpu_time\":1}]}", null, "with", null))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("The value at benchmarks[0].real_time (line 1, column 79): '100000")
                .hasMessageEndingWith("…' is beyond the range of a double (about ±1.8e308).");
        // the tokens NaN and Infinity are numbers that the validator refuses naming their metric
        assertThat(one(formats.parse("{\"metrics\":{\"n\":[1, Infinity, -Infinity, NaN]}}", null, "with", null),
                "with").get("n").values()).containsExactly(1.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.NaN);
        // a number that is the whole content has no path (taking the first character of an empty one threw)
        assertThatThrownBy(() -> formats.parse(" 1e400", UploadFormat.JSON, "with", null))
                .isInstanceOf(InvalidUploadException.class).hasMessage("The value (line 1, column 2): '1e400' is "
                        + "beyond the range of a double (about ±1.8e308).");
        // a two-file upload says which file
        assertThatThrownBy(() -> formats.parseSides("{\"metrics\":{\"n\":[1, 2]}}",
                "{\"metrics\":{\"n\":[1, 1e400]}}", UploadFormat.JSON)).isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("The file 'with': The value at metrics.n[1] (line 1, column 21): '1e400' is");
    }

    @Test
    void jmhEntriesOfOneKeyInTwoUnitsAreRefusedNotPooled() {
        // two runs of one benchmark, -tu us and -tu ns, in one file: 1 us and 1000 ns were pooled as us
        String jmh = "[{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"primaryMetric\":{\"scoreUnit\":\"us/op\","
                + "\"rawData\":[[1,2]]}},{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"primaryMetric\":"
                + "{\"scoreUnit\":\"ns/op\",\"rawData\":[[1000,2000]]}}]";
        assertThatThrownBy(() -> formats.parse(jmh, UploadFormat.JMH, "with", null))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("JMH entry 2: metric 'B.m' has unit 'ns/op' here and unit 'us/op' before");
    }

    @Test
    void googleBenchmarkLeavesOutSkippedRunsWithAWarning() {
        // SkipWithMessage: Google Benchmark 1.8 writes "skipped" and the run's zero times, which were stored as samples
        String json = "{\"context\":{\"executable\":\"./bench\"},\"benchmarks\":["
                + "{\"name\":\"BM_a\",\"run_name\":\"BM_a\",\"run_type\":\"iteration\",\"skipped\":true,"
                + "\"skip_message\":\"needs AVX2\",\"iterations\":0,\"real_time\":0,\"cpu_time\":0,"
                + "\"time_unit\":\"ns\"},"
                + "{\"name\":\"BM_b\",\"run_name\":\"BM_b\",\"run_type\":\"iteration\",\"iterations\":10,"
                + "\"real_time\":3,\"cpu_time\":3,\"time_unit\":\"ns\"}]}";
        ParsedUpload upload = formats.parse(json, null, "with", null);
        assertThat(one(upload, "with")).containsOnlyKeys("BM_b:real_time", "BM_b:cpu_time");
        assertThat(upload.warnings()).containsExactly("Google Benchmark entry 'BM_a' was skipped (needs AVX2); it "
                + "was left out.");
    }

    @Test
    void googleBenchmarkIsNamedAfterItsExecutableOnWindowsToo() {
        String json = "{\"context\":{\"executable\":\"EXE\"},\"benchmarks\":[{\"name\":\"BM_b\","
                + "\"run_type\":\"iteration\",\"real_time\":3,\"cpu_time\":3,\"time_unit\":\"ns\"}]}";
        assertThat(formats.parse(json.replace("EXE", "C:\\\\build\\\\Release\\\\bench.exe"), null, "with", null)
                .benchmark()).isEqualTo("bench.exe");
        assertThat(formats.parse(json.replace("EXE", "/opt/bench/bench_strings"), null, "with", null).benchmark())
                .isEqualTo("bench_strings");
        // a path without a file name names nothing: the name is derived from the metrics, as for output without one
        assertThat(formats.parse(json.replace("EXE", "/opt/bench/"), null, "with", null).benchmark())
                .isEqualTo("BM_b");
    }

    @Test
    void jmhHistogramOfNoSamplesOrANegativeCountIsRefusedSayingSo() {
        // an iteration's mean was 0 / 0, refused as "value 2 is NaN", a value the file does not hold
        String jmh = "[{\"benchmark\":\"a.B.m\",\"mode\":\"sample\",\"primaryMetric\":{\"scoreUnit\":\"us/op\","
                + "\"rawDataHistogram\":[[[[1.0,2]],HISTOGRAM]]}}]";
        assertThatThrownBy(() -> formats.parse(jmh.replace("HISTOGRAM", "[]"), null, "with", null))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("Metric 'B.m': rawDataHistogram[0][1] holds no samples (its counts add up to 0); each "
                        + "iteration's histogram has [value, count] pairs with counts of at least 1.");
        assertThatThrownBy(() -> formats.parse(jmh.replace("HISTOGRAM", "[[5.0,-1],[1.0,1]]"), null, "with", null))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("Metric 'B.m': rawDataHistogram[0][1] has the count -1; a count is a whole number of at "
                        + "least 0.");
    }

    @Test
    void jmhHistogramWhoseValuesTimesCountsGoBeyondADoubleIsRefusedNamingItsForkAndIteration() {
        // the iteration's mean was an infinity (or 0 / infinity), refused as "value 3 is Infinity" or taken as 0,
        // where the file holds finite numbers only
        String jmh = "[{\"benchmark\":\"a.B.m\",\"mode\":\"sample\",\"primaryMetric\":{\"scoreUnit\":\"us/op\","
                + "\"rawDataHistogram\":[[[[1.0,2]]],[[[1.0,2]],HISTOGRAM]]}}]";
        String beyond = " that add up beyond the range of a double (about ±1.8e308), so the iteration's mean cannot "
                + "be taken; check its [value, count] pairs.";
        // one value times its count, then two that are each in range and add up beyond it
        for (String histogram : List.of("[[1e300,1e10]]", "[[1.5e308,1],[1.5e308,1]]")) {
            assertThatThrownBy(() -> formats.parse(jmh.replace("HISTOGRAM", histogram), null, "with", null))
                    .as(histogram).isInstanceOf(InvalidUploadException.class)
                    .hasMessage("Metric 'B.m': rawDataHistogram[1][1] has values times counts" + beyond);
        }
        // counts that add up beyond a double, of values small enough to stay in range: the mean was 2e8 / ∞ = 0
        assertThatThrownBy(() -> formats.parse(jmh.replace("HISTOGRAM", "[[1e-300,1e308],[1e-300,1e308]]"), null,
                "with", null)).isInstanceOf(InvalidUploadException.class)
                .hasMessage("Metric 'B.m': rawDataHistogram[1][1] has counts" + beyond);
        // a count of Infinity is no whole number
        assertThatThrownBy(() -> formats.parse(jmh.replace("HISTOGRAM", "[[1.0,Infinity]]"), null, "with", null))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("Metric 'B.m': rawDataHistogram[1][1] has the count ")
                .hasMessageContaining("Infinity")
                .hasMessageEndingWith("; a count is a whole number of at least 0.");
        // a value the file writes as Infinity is left for the validator to name as written
        assertThat(one(formats.parse(jmh.replace("HISTOGRAM", "[[Infinity,1]]"), null, "with", null), "with")
                .get("B.m").values()).containsExactly(1.0, 1.0, Double.POSITIVE_INFINITY);
    }

    @Test
    void goAndRpcBenchNumbersBeyondADoubleAreRefusedWithTheirLineAsCsvOnes() {
        // the shared grammar reads 1e999 as an infinity for the reader to refuse; these two passed it on, and the
        // validator said "value 2 is Infinity", a value the output does not hold, without a line
        assertThatThrownBy(() -> formats.parse("BenchmarkJoin-2 20 910.9 ns/op\nBenchmarkJoin-2 20 1e999 ns/op\n",
                UploadFormat.GOBENCH, "with", null)).isInstanceOf(InvalidUploadException.class)
                .hasMessage("Metric 'Join:ns/op' (line 2): '1e999' is beyond the range of a double (about ±1.8e308).");
        assertThatThrownBy(() -> formats.parse("Mode:            Sync\n----\nReqs/sec:         -1e999\n",
                UploadFormat.RPCBENCH, "with", null)).isInstanceOf(InvalidUploadException.class)
                .hasMessage("Metric 'reqs_per_sec' (line 3: 'Reqs/sec:         -1e999'): '-1e999' is beyond the range "
                        + "of a double (about ±1.8e308).");
    }

    @Test
    void aFaultInOneOfTwoFilesNamesTheFile() {
        // "CSV line 3" did not say of which file; an empty file was "an empty body", the malformed one "the body"
        String good = "metric,value\nt,1\nt,2\n";
        assertThatThrownBy(() -> formats.parseSides(good, "metric,value\nt,1\nt,2.5f\n", null))
                .isInstanceOf(InvalidUploadException.class).hasMessageStartingWith("The file 'with': CSV line 3, ");
        assertThatThrownBy(() -> formats.parseSides("", good, null))
                .isInstanceOf(UploadFormatException.class)
                .hasMessageStartingWith("The file 'without': Cannot tell the format of the upload from its content "
                        + "(an empty body)");
        String gobench = "BenchmarkJoin-2 20 910.9 ns/op\nBenchmarkJoin-2 20 911.9 ns/op\n";
        assertThatThrownBy(() -> formats.parseSides(gobench, gobench.replace("911.9", "9x"), UploadFormat.GOBENCH))
                .hasMessageStartingWith("The file 'with': Metric 'Join:ns/op' (line 2)");
        assertThatThrownBy(() -> formats.parseSides(gobench, "PASS\n", UploadFormat.GOBENCH))
                .isInstanceOf(UploadFormatException.class)
                .hasMessageStartingWith("The file 'with': The upload is not in the format 'gobench'");
        String jmh = Fixtures.read("jmh.json");
        assertThatThrownBy(() -> formats.parseSides(jmh.substring(0, jmh.length() / 2), jmh, UploadFormat.JMH))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("The file 'without' is not valid JSON: it ends before its last value");
        assertThatThrownBy(() -> formats.parseSides(jmh, gobench, UploadFormat.JMH))
                .isInstanceOf(UploadFormatException.class)
                .hasMessageStartingWith("The file 'with': The upload is not in the format 'jmh'");
    }

    @Test
    void warningsShowWhatTheyQuoteEscapedAndCut() {
        // a warning is stored and shown on pages, in reports and on terminals: an escape code in Google Benchmark's
        // error message cleared the terminal of whoever read it, and a megabyte of message was stored whole
        String json = "{\"context\":{\"executable\":\"./bench\"},\"benchmarks\":["
                + "{\"name\":\"BM_a\",\"run_type\":\"iteration\",\"error_occurred\":true,"
                + "\"error_message\":\"disk\\u001b[2Jfull\\u202e\"},"
                + "{\"name\":\"BM_c\",\"run_type\":\"iteration\",\"skipped\":true,"
                + "\"skip_message\":\"" + "z".repeat(100_000) + "\"},"
                + "{\"name\":\"BM_b\",\"run_type\":\"iteration\",\"real_time\":3,\"cpu_time\":3,"
                + "\"time_unit\":\"ns\"}]}";
        List<String> warnings = formats.parse(json, null, "with", null).warnings();
        assertThat(warnings.get(0)).isEqualTo("Google Benchmark entry 'BM_a' reported an error "
                + "(disk\\u001B[2Jfull\\u202E); it was left out.");
        assertThat(warnings.get(1)).startsWith("Google Benchmark entry 'BM_c' was skipped (zzz").hasSizeLessThan(300);
    }

    @Test
    void jmhFilesOfTwoSidesAreKeyedOverBoth() {
        // jmh-modes.json: bench.json.ParseBenchmark.parse and bench.text.ParseBenchmark.parse, -bm avgt,sample
        String all = Fixtures.read("jmh-modes.json");
        ArrayNode json = JsonNodeFactory.instance.arrayNode();
        JsonContent.read(all).forEach(entry -> {
            if (entry.get("benchmark").asString().startsWith("bench.json.")) {
                json.add(entry);
            }
        });
        // alone, the one class is keyed without its package; beside the other side, with the package both share
        assertThat(one(formats.parse(json.toString(), UploadFormat.JMH, "with", null), "with"))
                .containsKey("ParseBenchmark.parse[mode=avgt]");
        List<ParsedUpload> sides = formats.parseSides(all, json.toString(), UploadFormat.JMH);
        ParsedUpload with = sides.get(1);
        assertThat(one(with, "with")).containsKeys("json.ParseBenchmark.parse[mode=avgt]",
                "json.ParseBenchmark.parse[mode=sample]").hasSize(2 + 8);
        assertThat(with.benchmark()).isEqualTo("bench.json.ParseBenchmark");
        assertThat(one(sides.get(0), "without"))
                .isEqualTo(one(formats.parse(all, UploadFormat.JMH, "without", null), "without"));
        // a file of each side that is not JMH's is refused as such
        assertThatThrownBy(() -> formats.parseSides(all, "BenchmarkJoin 1 2 ns/op", UploadFormat.JMH))
                .isInstanceOf(UploadFormatException.class).hasMessageContaining("not in the format 'jmh'");
    }

    @Test
    void jmhParamValuesHoldingCommasEqualsOrQuotesKeepTheirBenchmarksApart() {
        // {a: "1,b=2"} and {a: "1", b: "2"} were both keyed B.m[a=1,b=2], and their samples pooled as one metric
        String entry = "{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"params\":PARAMS,"
                + "\"primaryMetric\":{\"scoreUnit\":\"us/op\",\"rawData\":[[1,2]]}}";
        String jmh = "[" + String.join(",", entry.replace("PARAMS", "{\"a\":\"1,b=2\"}"),
                entry.replace("PARAMS", "{\"a\":\"1\",\"b\":\"2\"}"),
                entry.replace("PARAMS", "{\"a\":\"\\\"1\",\"b\":\"2\\\"\"}"),
                entry.replace("PARAMS", "{\"a\":\"\\\"1,b=2\\\"\"}"),
                entry.replace("PARAMS", "{\"a\":\"x]\"}")) + "]";
        Map<String, MetricSamples> metrics = one(formats.parse(jmh, UploadFormat.JMH, "with", null), "with");
        // a value without such characters is keyed as it always was, so stored keys stay as they are
        assertThat(metrics).containsOnlyKeys("B.m[a=\"1,b=2\"]", "B.m[a=1,b=2]", "B.m[a=\"\"\"1\",b=\"2\"\"\"]",
                "B.m[a=\"\"\"1,b=2\"\"\"]", "B.m[a=\"x]\"]");
        metrics.values().forEach(m -> assertThat(m.values()).containsExactly(1.0, 2.0));
    }

    @Test
    void jmhParamValueThatIsNotTextIsRefusedNamingTheEntryAndTheParameter() {
        // {a: null} was keyed B.m[a=null], as {a: "null"} is, and the samples of both pooled as one metric
        String entry = "{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"params\":PARAMS,"
                + "\"primaryMetric\":{\"scoreUnit\":\"us/op\",\"rawData\":[[1,2]]}}";
        String text = entry.replace("PARAMS", "{\"a\":\"null\",\"b\":\"8\"}");
        Map<String, String> notText = Map.of("null", "null", "8", "a number 8", "true", "true", "{}", "an object",
                "[\"8\"]", "a list");
        notText.forEach((value, said) -> assertThatThrownBy(() -> formats.parse("[" + text + ","
                + entry.replace("PARAMS", "{\"a\":\"null\",\"b\":" + value + "}") + "]", UploadFormat.JMH, "with",
                null)).as(value).isInstanceOf(InvalidUploadException.class)
                .hasMessage("JMH entry 2: 'params.b' must be text, as JMH writes every parameter's value "
                        + "(\"parts\": \"8\"), got " + said + "."));
        // in a two-file upload, said of its file
        assertThatThrownBy(() -> formats.parseSides("[" + text + "]",
                "[" + entry.replace("PARAMS", "{\"a\":null}") + "]", UploadFormat.JMH))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageStartingWith("The file 'with': JMH entry 1: 'params.a' must be text");
        // values of text are keyed as before, so that stored keys stay as they are
        assertThat(one(formats.parse("[" + text + "]", UploadFormat.JMH, "with", null), "with"))
                .containsOnlyKeys("B.m[a=null,b=8]");
    }

    /** Parameters that were no object were read as none: entries run with "parts=8" and "parts=16" pooled. */
    @Test
    void jmhParamsThatAreNoObjectAreRefusedNamingTheEntry() {
        String entry = "{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"params\":PARAMS,"
                + "\"primaryMetric\":{\"scoreUnit\":\"us/op\",\"rawData\":[[1,2]]}}";
        Map<String, String> notAnObject = Map.of("\"parts=8\"", "text", "[\"8\"]", "a list", "8", "a number 8");
        notAnObject.forEach((value, said) -> assertThatThrownBy(() -> formats.parse("[" + entry.replace("PARAMS",
                value) + "]", UploadFormat.JMH, "with", null)).as(value).isInstanceOf(InvalidUploadException.class)
                .hasMessage("JMH entry 1: 'params' must be an object of each parameter's value as text "
                        + "({\"parts\": \"8\"}), as JMH writes it, or left out; got " + said + "."));
        assertThat(one(formats.parse("[" + entry.replace("PARAMS", "null") + "]", UploadFormat.JMH, "with", null),
                "with")).as("null: no parameters, as when they are left out").containsOnlyKeys("B.m");
    }

    @Test
    void jmhClassesOfTheSameSimpleNameInDifferentPackagesStayApart() {
        ParsedUpload upload = formats.parse(Fixtures.read("jmh-modes.json"), null, "with", null);
        // jmh-modes.json: bench.json.ParseBenchmark.parse and bench.text.ParseBenchmark.parse, -bm avgt,sample
        // (sample mode adds its per-iteration percentiles p0.00 … p1.00 as 8 secondary metrics)
        assertThat(one(upload, "with")).containsKeys("json.ParseBenchmark.parse[mode=avgt]",
                "text.ParseBenchmark.parse[mode=avgt]", "json.ParseBenchmark.parse[mode=sample]",
                "text.ParseBenchmark.parse[mode=sample]", "text.ParseBenchmark.parse[mode=sample]:p0.99")
                .hasSize(2 + 2 * (1 + 8));
        assertThat(one(upload, "with").get("text.ParseBenchmark.parse[mode=avgt]").values())
                .containsExactly(185.8138134481787, 125.62826939566014, 207.04076269471386, 170.9784639065891);
        assertThat(upload.benchmark()).isEqualTo("bench");
        assertThat(upload.machine()).containsEntry("jdkVersion", "17.0.15").containsEntry("jmhVersion", "1.37");
    }

    @Test
    void jmhSampleModeGivesEachIterationsMeanWhenMixedWithOtherModes() {
        Map<String, MetricSamples> metrics = one(formats.parse(Fixtures.read("jmh-modes.json"), UploadFormat.JMH,
                "with", null), "with");
        // jmh-modes.json, json.ParseBenchmark sample mode: 2 forks × 2 iterations of rawDataHistogram; each mean
        // Σ value·count / Σ count computed from the file with Python; weighted by the counts (1090, 1717, 1175,
        // 1275) they give JMH's score, 2611.9642381586455
        MetricSamples sample = metrics.get("json.ParseBenchmark.parse[mode=sample]");
        assertThat(sample.unit()).isEqualTo("ns/op");
        assertThat(sample.higherIsBetter()).isFalse();
        double[] expected = {11793.035779816513, 213.84216656959813, 302.40425531914894, 120.93725490196078};
        assertThat(sample.values()).hasSize(4);
        for (int i = 0; i < expected.length; i++) {
            assertThat(sample.values().get(i)).isCloseTo(expected[i], Percentage.withPercentage(1e-9));
        }
    }

    @Test
    void truncatedJmhFileSaysSoWithoutTheParsersInternals() {
        String whole = Fixtures.read("jmh.json");
        String truncated = whole.substring(0, whole.length() / 2);
        assertThatThrownBy(() -> formats.parse(truncated, UploadFormat.JMH, "with", null))
                .isInstanceOf(JsonContent.MalformedJsonException.class)
                .hasMessageContaining("truncated").hasMessageContaining("line ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("Source", "marker", "REDACTED", "JsonToken",
                        "tools.jackson", "end-of-input", "[").hasLineCount(1));
    }

    @Test
    void googleBenchmarkCarriesMachineDetailsAndWarnsOfADebugBuild() {
        ParsedUpload upload = formats.parse(Fixtures.read("googlebenchmark.json"), null, "with", null);
        // googlebenchmark.json's context: host_name "vm", num_cpus 2, library_build_type "debug" (Debian's package)
        assertThat(upload.machine()).containsEntry("host_name", "vm").containsEntry("num_cpus", 2)
                .containsEntry("cpu_scaling_enabled", false).containsEntry("library_build_type", "debug");
        assertThat(upload.warnings()).singleElement().asString().contains("built as debug");
    }

    @Test
    void hyperfineFlagsRunsThatExitedNonZero() {
        ParsedUpload upload = formats.parse(Fixtures.read("hyperfine-exit.json"), null, "with", null);
        // hyperfine-exit.json: hyperfine -N -i --runs 10 'ls /tmp' 'ls /tmp/does-not-exist-17371' (exit code 2)
        assertThat(upload.warnings()).singleElement().asString()
                .contains("10 of 10 runs of 'ls /tmp/does-not-exist-17371' ('with')").contains("non-zero status (2)");
        assertThat(formats.parse(Fixtures.read("hyperfine.json"), null, "with", null).warnings()).isEmpty();
    }

    @Test
    void hyperfineAndCsvWithoutANameDeriveOne() {
        assertThat(formats.parse(Fixtures.read("hyperfine.json"), null, "with", null).benchmark())
                .isEqualTo("sort --version vs gzip --version");
        // samples.csv measures parse_ns and alloc_bytes
        assertThat(formats.parse(Fixtures.read("samples.csv"), null, "with", null).benchmark())
                .isEqualTo("parse_ns, alloc_bytes");
        assertThat(formats.parse(Fixtures.read("hyperfine-exit.json"), null, "with", null).benchmark())
                .isEqualTo("ls /tmp vs ls /tmp/does-not-exist-17371");
    }

    @Test
    void warningsOfTwoFilesSayWhichFileTheyComeFrom() {
        ParsedUpload without = formats.parse(Fixtures.read("gobench.txt"), null, "without", null);
        ParsedUpload with = formats.parse(Fixtures.read("googlebenchmark.json"), null, "with", null);
        assertThat(ParsedUpload.pair(without, with).warnings()).singleElement().asString()
                .startsWith("'with' file: The Google Benchmark library was built as debug");
    }

    // ---- entries, results and lines that hold no measurement are refused, naming where and why ----

    /**
     * A line that begins as a result line does (the name, white space, a number) but is none was skipped without a
     * word: an upload whose second line said "-1 -5 ns/op" stored 1 sample of 2, and output cut off after a line's
     * iteration count lost that line.
     */
    @Test
    void goLineThatBeginsAsAResultButIsNoneIsRefusedWithItsLineAndWhy() {
        String first = "BenchmarkJoin-8   \t 1000000\t       910.9 ns/op\n";
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("BenchmarkJoin-8 -1 -5 ns/op", "Go benchmark line 2 ('BenchmarkJoin-8 -1 -5 ns/op'): the "
                + "iteration count '-1' is not a whole number of at least 1.");
        refused.put("BenchmarkJoin-8 0 5 ns/op", "Go benchmark line 2 ('BenchmarkJoin-8 0 5 ns/op'): the "
                + "iteration count '0' is not a whole number of at least 1.");
        refused.put("BenchmarkJoin-8 1.5e6 5 ns/op", "Go benchmark line 2 ('BenchmarkJoin-8 1.5e6 5 ns/op'): the "
                + "iteration count '1.5e6' is not a whole number of at least 1.");
        refused.put("BenchmarkJoin-8   \t 1000000", "Go benchmark line 2 ('BenchmarkJoin-8 1000000') ends "
                + "after its iteration count: it has no value/unit pair. Was the output cut off?");
        refused.put("BenchmarkJoin-8 1000000 -5 ns/op", "Metric 'Join:ns/op' (line 2): '-5' is negative, which "
                + "ns/op as Go measures it cannot be.");
        refused.put("BenchmarkJoin-8 1000000 910.9 ns/op -96 B/op", "Metric 'Join:B/op' (line 2): '-96' is "
                + "negative, which B/op as Go measures it cannot be.");
        refused.put("BenchmarkJoin-8 1000000 910.9", "Go benchmark line 2 ('BenchmarkJoin-8 1000000 910.9') does "
                + "not consist of value/unit pairs: a value has no unit, or the line was cut off.");
        refused.forEach((line, message) -> {
            assertThatThrownBy(() -> formats.parse(first + line + "\n", UploadFormat.GOBENCH, "with", null))
                    .as(line).isInstanceOf(InvalidUploadException.class).hasMessage(message);
            // the last line of output cut off, without its line break
            assertThatThrownBy(() -> formats.parse(first + line, null, "with", null)).as(line)
                    .isInstanceOf(InvalidUploadException.class).hasMessage(message);
        });
    }

    /**
     * What {@code go test -bench} prints besides its results, and what benchstat's format allows, is neither a
     * result nor an error: configuration lines, blank lines, PASS/ok, {@code --- BENCH:} logs and their indented
     * lines (an indented log line that looked like a result was stored as one), the name alone that {@code -v}
     * prints, a line of a benchmark's own output. A metric of b.ReportMetric's own may be negative.
     */
    @Test
    void goOutputBesidesResultLinesIsNeitherAResultNorAnError() {
        String output = """
                goos: linux
                goarch: amd64
                pkg: example.com/gofix
                cpu: AMD EPYC
                commit: 0123abc

                BenchmarkJoin
                BenchmarkJoin-2     \t   20000\t       910.9 ns/op\t        -0.5 delta/op
                --- BENCH: BenchmarkJoin-2
                    bench_test.go:12: joined 20000 strings; the last run said:
                        BenchmarkJoin-2 20000 7 ns/op
                Benchmarking 3 inputs of 2 kinds
                BenchmarkJoin-2     \t   20000\t       924.2 ns/op\t        -0.7 delta/op
                PASS
                ok  \texample.com/gofix\t1.788s
                """;
        Map<String, MetricSamples> metrics = one(formats.parse(output, null, "with", null), "with");
        assertThat(metrics).containsOnlyKeys("Join:ns/op", "Join:delta/op");
        assertThat(metrics.get("Join:ns/op").values()).containsExactly(910.9, 924.2);
        assertThat(metrics.get("Join:delta/op").values()).containsExactly(-0.5, -0.7);
    }

    /**
     * An entry named null was stored as the metrics 'null:real_time' and 'null:cpu_time' of a benchmark "null", a
     * time unit Google Benchmark never writes was stored as the metrics' unit, and a context that is no object was
     * read as an empty one.
     */
    @Test
    void googleBenchmarkEntryWithoutANameOrInAnotherTimeUnitIsRefusedNamingIt() {
        String entry = "{\"name\":NAME,\"run_type\":\"iteration\",\"real_time\":3,\"cpu_time\":3,\"time_unit\":UNIT}";
        String json = "{\"context\":CONTEXT,\"benchmarks\":[" + entry.replace("NAME", "\"BM_a\"")
                .replace("UNIT", "\"ns\"") + "," + entry + "]}";
        String named = json.replace("CONTEXT", "{\"executable\":\"./bench\"}");
        Map<String, String> names = Map.of("null", "got null", "7", "got a number 7", "\"\"", "got empty text",
                "{}", "got an object");
        names.forEach((name, said) -> assertThatThrownBy(() -> formats.parse(named.replace("NAME", name)
                .replace("UNIT", "\"ns\""), UploadFormat.GOOGLEBENCHMARK, "with", null)).as(name)
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("Google Benchmark entry 2: 'name' must be the benchmark's name as text; " + said + "."));
        assertThatThrownBy(() -> formats.parse(named.replace("\"name\":NAME,", "").replace("UNIT", "\"ns\""), null,
                "with", null))
                .hasMessage("Google Benchmark entry 2: 'name' must be the benchmark's name as text; it is missing.");

        String unnamed = named.replace("NAME", "\"BM_b\"");
        assertThatThrownBy(() -> formats.parse(unnamed.replace("UNIT", "\"parsec\""), UploadFormat.GOOGLEBENCHMARK,
                "with", null)).isInstanceOf(InvalidUploadException.class)
                .hasMessage("Google Benchmark entry 2 ('BM_b'): 'time_unit' must be one of Google Benchmark's time "
                        + "units ns, us, ms or s; got 'parsec'.");
        assertThatThrownBy(() -> formats.parse(unnamed.replace("UNIT", "1"), null, "with", null))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("Google Benchmark entry 2 ('BM_b'): 'time_unit' must be one of Google Benchmark's time "
                        + "units ns, us, ms or s; got a number 1.");
        for (String unit : List.of("ns", "us", "ms", "s")) {
            assertThat(one(formats.parse(unnamed.replace("UNIT", "\"" + unit + "\""), null, "with", null), "with")
                    .get("BM_b:cpu_time").unit()).isEqualTo(unit);
        }

        String ns = json.replace("NAME", "\"BM_b\"").replace("UNIT", "\"ns\"");
        Map<String, String> contexts = Map.of("\"x\"", "'x'", "[]", "a list", "7", "a number 7");
        contexts.forEach((context, said) -> assertThatThrownBy(() -> formats.parse(ns.replace("CONTEXT", context),
                UploadFormat.GOOGLEBENCHMARK, "with", null)).as(context).isInstanceOf(InvalidUploadException.class)
                .hasMessage("The Google Benchmark JSON's 'context' must be an object, as Google Benchmark writes it, "
                        + "or left out; got " + said + "."));
        assertThat(formats.parse(ns.replace("CONTEXT", "null"), null, "with", null).machine()).isEmpty();
    }

    /**
     * A result without its command was stored as the benchmark "time", and a result with more or fewer exit codes
     * than times was taken, its failed runs counted among runs that are not its times'.
     */
    @Test
    void hyperfineResultWithoutACommandOrWithExitCodesOfOtherRunsIsRefusedNamingIt() {
        JsonNode fixture = JsonContent.read(Fixtures.read("hyperfine.json"));
        ObjectNode noCommand = (ObjectNode) fixture.deepCopy();
        ((ObjectNode) noCommand.get("results").get(1)).remove("command");
        assertThatThrownBy(() -> formats.parse(noCommand.toString(), UploadFormat.HYPERFINE, "with", null))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("hyperfine result 2: 'command' must be the command hyperfine ran, as text; it is "
                        + "missing.");
        ((ObjectNode) noCommand.get("results").get(1)).putNull("command");
        assertThatThrownBy(() -> formats.parse(noCommand.toString(), null, "with", null))
                .hasMessage("hyperfine result 2: 'command' must be the command hyperfine ran, as text; got null.");

        // hyperfine.json: 12 runs of each command, 12 exit codes
        ObjectNode fewer = (ObjectNode) fixture.deepCopy();
        ((ArrayNode) fewer.get("results").get(0).get("exit_codes")).remove(0);
        assertThatThrownBy(() -> formats.parse(fewer.toString(), UploadFormat.HYPERFINE, "with", null))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("hyperfine result 1 ('sort --version'): 'exit_codes' has 11 entries and 'times' 12; "
                        + "hyperfine writes one exit code for each run.");
        ObjectNode more = (ObjectNode) fixture.deepCopy();
        ((ArrayNode) more.get("results").get(1).get("exit_codes")).add(0);
        assertThatThrownBy(() -> formats.parse(more.toString(), null, "with", null))
                .hasMessage("hyperfine result 2 ('gzip --version'): 'exit_codes' has 13 entries and 'times' 12; "
                        + "hyperfine writes one exit code for each run.");
        ObjectNode text = (ObjectNode) fixture.deepCopy();
        ((ObjectNode) text.get("results").get(1)).put("exit_codes", "0");
        assertThatThrownBy(() -> formats.parse(text.toString(), null, "with", null))
                .hasMessage("hyperfine result 2 ('gzip --version'): 'exit_codes' must be a list of each run's exit "
                        + "code, as hyperfine writes it, or left out; got '0'.");
        // an export without exit codes is taken, as before
        ObjectNode older = (ObjectNode) fixture.deepCopy();
        older.get("results").forEach(result -> ((ObjectNode) result).remove("exit_codes"));
        assertThat(formats.parse(older.toString(), null, "with", null).variants()).containsOnlyKeys("without",
                "with");
    }

    /** JMH runs in four modes; an entry of another mode was taken, and keyed and judged lower-is-better. */
    @Test
    void jmhEntryOfAModeJmhDoesNotHaveIsRefusedNamingTheEntry() {
        String entry = "{\"benchmark\":\"a.B.m\",\"mode\":MODE,\"primaryMetric\":{\"scoreUnit\":\"us/op\","
                + "\"rawData\":[[1,2]]}}";
        String jmh = "[" + entry.replace("MODE", "\"avgt\"") + "," + entry.replace("a.B.m", "a.B.n") + "]";
        Map<String, String> modes = Map.of("\"zzz\"", "got 'zzz'", "\"AVGT\"", "got 'AVGT'", "null", "got null",
                "7", "got a number 7");
        modes.forEach((mode, said) -> assertThatThrownBy(() -> formats.parse(jmh.replace("MODE", mode),
                UploadFormat.JMH, "with", null)).as(mode).isInstanceOf(InvalidUploadException.class)
                .hasMessage("JMH entry 2 ('a.B.n'): 'mode' must be one of JMH's modes thrpt, avgt, sample or ss; "
                        + said + "."));
        assertThatThrownBy(() -> formats.parse(jmh.replace(",\"mode\":MODE", ""), null, "with", null))
                .hasMessage("JMH entry 2 ('a.B.n'): 'mode' must be one of JMH's modes thrpt, avgt, sample or ss; it "
                        + "is missing.");
        for (String mode : List.of("thrpt", "avgt", "sample", "ss")) {
            assertThat(one(formats.parse(jmh.replace("MODE", "\"" + mode + "\""), null, "with", null), "with")
                    .get("B.n").higherIsBetter()).as(mode).isEqualTo(mode.equals("thrpt"));
        }
    }
}
