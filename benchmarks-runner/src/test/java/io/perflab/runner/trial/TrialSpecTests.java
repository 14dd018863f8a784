package io.perflab.runner.trial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentJson;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.CallMode;
import io.perflab.runner.rpcbench.InvalidSettingException;
import io.perflab.runner.rpcbench.Seconds;
import io.perflab.runner.rpcbench.Stack;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.rpcbench.WorkloadSettings;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrialSpecTests {

    @Test
    void jsonReadsBackToTheSameSpec() {
        Workload workload = Workload.DEFAULTS.withMode(CallMode.ASYNC).withClientThreads(2).withAsyncConcurrency(8)
                .withWorkerThreads(3).withServerReactors(2).withEncryption(true).withPayload(100, 2000)
                .withWarmup(Warmup.auto(Duration.ofSeconds(12))).withRun(Duration.ofMillis(1500));
        TrialSpec spec = new TrialSpec(EngineOptions.fromMap(Map.of("completion", "monitor", "allocator", "unpooled")),
                workload);

        assertThat(TrialSpec.fromJson(spec.toJson())).isEqualTo(spec);
        assertThat(spec.toJson()).contains("\"completion\":\"monitor\"", "\"warmupSeconds\":\"auto:12\"",
                "\"runSeconds\":1.5", "\"mode\":\"async\"", "\"stack\":\"perflab\"");
    }

    @Test
    void aSpecThatIsNotOneSaysWhatIsWrong() {
        String good = new TrialSpec(EngineOptions.defaults(), Workload.DEFAULTS).toJson();

        assertThatThrownBy(() -> TrialSpec.fromJson(good.replace("\"mode\":\"sync\"", "\"mode\":\"batch\"")))
                .hasMessage("workload.mode: must be sync or async, got 'batch'");
        assertThatThrownBy(() -> TrialSpec.fromJson(good.replace("\"clientThreads\":16", "\"clientThreads\":0")))
                .hasMessage("workload.clientThreads: must be ≥ 1, got 0");
        assertThatThrownBy(() -> TrialSpec.fromJson(good.replace("\"clientThreads\":16",
                "\"clientThreads\":16,\"threads\":16")))
                .hasMessageStartingWith("workload.threads: unknown field; allowed: ");
        assertThatThrownBy(() -> TrialSpec.fromJson(good.replace("\"clientThreads\":16", "\"clientThreads\":1.5")))
                .hasMessage("workload.clientThreads: must be a whole number");
        assertThatThrownBy(() -> TrialSpec.fromJson(good.replace("\"runSeconds\":5", "\"runSeconds\":1e20")))
                .hasMessageContaining("must be at most 86400 s");
        assertThatThrownBy(() -> TrialSpec.fromJson(good.replace("\"tls\":\"false\"", "\"tls\":\"maybe\"")))
                .hasMessageStartingWith("engineOptions: invalid value 'maybe' for engine option 'tls'");
    }

    @Test
    void aTrialGivenNullExitsAsAUsageErrorNamingTheSpec() {
        java.io.StringWriter err = new java.io.StringWriter();
        int exit = TrialMain.run(List.of("null"), new java.io.BufferedReader(new java.io.StringReader("")),
                new java.io.PrintWriter(new java.io.StringWriter()), new java.io.PrintWriter(err, true));

        assertThat(exit).isEqualTo(TrialMain.EXIT_USAGE);
        assertThat(err.toString()).contains("perflab trial: spec: must be a JSON object with engineOptions and "
                + "workload").doesNotContain("Cannot invoke", "null\"");
    }

    /** {@code perflab trial null} was an internal error (exit 70); the others said Jackson's words without a field. */
    @Test
    void aSpecThatIsNoObjectOrHasAFieldOfTheWrongKindNamesTheFieldAndWhatItMustBe() {
        for (String notAnObject : new String[] {"null", "[]", "{}", "5", "\"spec\"", "{\"workload\":{}}"}) {
            assertThatThrownBy(() -> TrialSpec.fromJson(notAnObject)).as(notAnObject)
                    .hasMessage("spec: must be a JSON object with engineOptions and workload");
        }
        assertThatThrownBy(() -> TrialSpec.fromJson("{")).hasMessageStartingWith("spec: is not valid JSON (line 1");
        assertThatThrownBy(() -> TrialSpec.fromJson("{\"engineOptions\":{},\"workload\":{\"clientThreads\":\"x\"}}"))
                .hasMessage("workload.clientThreads: must be a whole number");
        String good = new TrialSpec(EngineOptions.defaults(), Workload.DEFAULTS).toJson();
        assertThatThrownBy(() -> TrialSpec.fromJson(good.replace("\"clientThreads\":16", "\"clientThreads\":-5")))
                .hasMessage("workload.clientThreads: must be ≥ 1, got -5");
        assertThatThrownBy(() -> TrialSpec.fromJson(good.replace("\"clientThreads\":16,", "")))
                .hasMessage("workload.clientThreads: is missing or null: it must be a whole number");
        assertThatThrownBy(() -> TrialSpec.fromJson(good.replaceFirst("}$", ",\"extra\":1}")))
                .hasMessage("extra: unknown field; allowed: engineOptions, workload");
        assertThatThrownBy(() -> TrialSpec.fromJson("{\"engineOptions\":null,\"workload\":{}}"))
                .hasMessage("engineOptions: must be an object");
        assertThatThrownBy(() -> TrialSpec.fromJson("{\"engineOptions\":{\"tls\":1},\"workload\":{}}"))
                .hasMessageStartingWith("engineOptions");
        assertThatThrownBy(() -> TrialSpec.fromJson("{\"engineOptions\":{},\"workload\":{\"clientThreads\":1e99}}"))
                .hasMessageStartingWith("workload.clientThreads: ");
    }

    @Test
    void injectedServerWorkTravelsInTheSpecAndIsLeftOutWhenThereIsNone() {
        TrialSpec injected = new TrialSpec(EngineOptions.defaults(), Workload.DEFAULTS.withServerWorkNanos(1500));
        String none = new TrialSpec(EngineOptions.defaults(), Workload.DEFAULTS).toJson();

        assertThat(TrialSpec.fromJson(injected.toJson())).isEqualTo(injected);
        assertThat(injected.toJson()).contains("\"serverWorkNanos\":1500");
        assertThat(injected.workload().describe()).containsEntry("serverWorkNanos", "1500");
        // specs and stored workloads written before the setting existed read as no injected work
        assertThat(none).doesNotContain("serverWorkNanos");
        assertThat(TrialSpec.fromJson(none).workload().serverWorkNanos()).isZero();
        assertThatThrownBy(() -> Workload.DEFAULTS.withServerWorkNanos(-1))
                .hasMessage("serverWorkNanos: must be ≥ 0, got -1");
    }

    @Test
    void theStackTravelsInTheSpec() {
        TrialSpec grpc = new TrialSpec(EngineOptions.defaults(),
                Workload.DEFAULTS.withStack(Stack.GRPC).withPayload(2048, 2048));

        assertThat(TrialSpec.fromJson(grpc.toJson())).isEqualTo(grpc);
        assertThatThrownBy(() -> Stack.parse("zeromq")).hasMessage("must be perflab, grpc or netty, got 'zeromq'");
        assertThatThrownBy(() -> Workload.DEFAULTS.withStack(Stack.GRPC).withEncryption(true))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("encryption: is supported with the perflab stack only, got grpc");
    }

    @Test
    void settingsGoOverTheBaseAndKeepWhatTheyLeaveOut() {
        WorkloadSettings settings = new WorkloadSettings(null, CallMode.ASYNC, 2, null, null, null, null, 2048, null,
                Warmup.parse("auto:15"), new BigDecimal("0.25"), null);
        Workload workload = settings.applyTo(Workload.DEFAULTS);

        assertThat(workload).isEqualTo(Workload.DEFAULTS.withMode(CallMode.ASYNC).withClientThreads(2)
                .withPayload(2048, 0).withWarmup(Warmup.auto(Duration.ofSeconds(15))).withRun(Duration.ofMillis(250)));
        assertThat(WorkloadSettings.NONE.applyTo(Workload.DEFAULTS)).isEqualTo(Workload.DEFAULTS);
    }

    @Test
    void durationsAreBoundedBeforeTheyBecomeNanoseconds() {
        assertThat(Seconds.parse("0.5")).isEqualTo(Duration.ofMillis(500));
        assertThat(Seconds.parse("1e2")).isEqualTo(Duration.ofSeconds(100));
        assertThatThrownBy(() -> Seconds.parse("18446744074.709551616"))
                .hasMessage("must be at most 86400 s, got 18446744074.709551616");
        assertThatThrownBy(() -> Seconds.parse("1e400")).hasMessage("must be at most 86400 s, got 1E+400");
        assertThatThrownBy(() -> Seconds.parse("-1")).hasMessage("must not be negative, got -1");
        assertThatThrownBy(() -> Seconds.parse("0x1p3")).hasMessageContaining("must be a number of seconds");
        assertThatThrownBy(() -> Seconds.parse("2d")).hasMessageContaining("must be a number of seconds");
        assertThatThrownBy(() -> Warmup.parse("auto:18446744074.7"))
                .hasMessage("must be at most 600 s, got 18446744074.7");
        assertThatThrownBy(() -> Warmup.parse("601")).hasMessage("must be at most 600 s, got 601");
    }

    /** Each setting's own bound is checked before the longest any duration may be (86400 s). */
    @Test
    void aDurationOverItsSettingsBoundIsRefusedWithThatBoundAndTheValueAsWritten() {
        assertThatThrownBy(() -> Warmup.parse("100000")).hasMessage("must be at most 600 s, got 100000");
        assertThatThrownBy(() -> Warmup.parse("auto:1e5")).hasMessage("must be at most 600 s, got 100000");
        assertThatThrownBy(() -> Warmup.parse("-1"))
                .hasMessage("must be a number of seconds ≥ 0, 'auto' or 'auto:MAX', got '-1'");
        assertThatThrownBy(() -> Warmup.parse("auto:soon"))
                .hasMessage("must be a number of seconds ≥ 0, 'auto' or 'auto:MAX', got 'auto:soon'");
        assertThatThrownBy(() -> Seconds.parse("5000", new BigDecimal("3600")))
                .hasMessage("must be at most 3600 s, got 5000");
        assertThat(Seconds.number(" 5000 ")).hasToString("5000");
        assertThat(Seconds.number("100000")).hasToString("100000");
        assertThatThrownBy(() -> Seconds.number("-1")).hasMessage("must not be negative, got -1");
        assertThatThrownBy(() -> Seconds.number("5 s")).hasMessage("must be a number of seconds, got '5 s'");
    }

    @Test
    void warmupReadsFixedAndAutoForms() {
        assertThat(Warmup.parse("0.5")).isEqualTo(Warmup.fixed(Duration.ofMillis(500)));
        assertThat(Warmup.parse("auto")).isEqualTo(Warmup.auto(Warmup.DEFAULT_AUTO_MAX));
        assertThat(Warmup.parse("AUTO:20")).isEqualTo(Warmup.auto(Duration.ofSeconds(20)));
        assertThat(Warmup.auto(Duration.ofMillis(2500)).toString()).isEqualTo("auto:2.5");
    }

    @Test
    void resultLineIsFoundAmongLogLinesAndReadBack() {
        String line = TrialProtocol.encode(Map.of("reqs_per_sec", 155254.0, "gc_pause_ms", Double.NaN),
                Map.of("host", "bench-1"));

        assertThat(line).startsWith(TrialProtocol.PREFIX);
        assertThat(TrialProtocol.decode("12:00:01 INFO started")).isEmpty();
        TrialProtocol.Report report = TrialProtocol.decode(line).orElseThrow();
        assertThat(report.metrics()).containsExactly(Map.entry("reqs_per_sec", 155254.0));
        assertThat(report.environment()).containsEntry("host", "bench-1");
        assertThatThrownBy(() -> TrialProtocol.decode(TrialProtocol.PREFIX + "{\"metrics\":"))
                .hasMessageStartingWith("malformed trial result: Unexpected end-of-input");
    }

    @Test
    void protocolLinesWithNullsOrMetricsThatAreNoFiniteNumbersAreMalformed() {
        String environment = ",\"environment\":{\"host\":\"h\"}}";
        assertThatThrownBy(() -> TrialProtocol.decode(TrialProtocol.PREFIX + "null"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("malformed trial result: expected a JSON object, got null");
        assertThatThrownBy(() -> TrialProtocol.decodeReady(TrialProtocol.READY_PREFIX + "null"))
                .hasMessage("malformed trial ready line: expected a JSON object, got null");
        assertThatThrownBy(() -> TrialProtocol.decodeWindow(TrialProtocol.WINDOW_PREFIX + "null"))
                .hasMessage("malformed trial window line: expected a JSON object, got null");
        assertThatThrownBy(() -> TrialProtocol.decode(TrialProtocol.PREFIX + "[]"))
                .hasMessage("malformed trial result: expected a JSON object, got []");
        assertThatThrownBy(() -> TrialProtocol.decode(TrialProtocol.PREFIX + "{\"metrics\":null" + environment))
                .hasMessage("malformed trial result: 'metrics' is null");
        assertThatThrownBy(() -> TrialProtocol.decode(TrialProtocol.PREFIX + "{\"metrics\":{}}"))
                .hasMessage("malformed trial result: 'environment' is missing");
        assertThatThrownBy(() -> TrialProtocol.decode(TrialProtocol.PREFIX + "{\"metrics\":{},"
                + "\"environment\":{\"host\":null}}"))
                .hasMessage("malformed trial result: 'environment' holds null for 'host'");
        assertThatThrownBy(() -> TrialProtocol.decodeReady(TrialProtocol.READY_PREFIX + "{\"nanoTime\":null"
                + environment)).hasMessage("malformed trial ready line: 'nanoTime' is null");
        for (String metric : new String[] {"\"NaN\"", "\"Infinity\"", "\"155254\"", "null", "true", "1e400", "{}"}) {
            assertThatThrownBy(() -> TrialProtocol.decode(TrialProtocol.PREFIX + "{\"metrics\":{\"reqs_per_sec\":"
                    + metric + "}" + environment)).as(metric)
                    .hasMessage("malformed trial result: metric 'reqs_per_sec' must be a finite number, got "
                            + (metric.equals("1e400") ? "Infinity" : metric));
        }
        assertThatThrownBy(() -> TrialProtocol.decodeWindow(TrialProtocol.WINDOW_PREFIX + "{\"window\":0,"
                + "\"startNanos\":1,\"endNanos\":2,\"metrics\":{\"cpu_us_per_req\":\"NaN\"}" + environment))
                .hasMessage("malformed trial window line: metric 'cpu_us_per_req' must be a finite number, "
                        + "got \"NaN\"");
        assertThat(TrialProtocol.decode(TrialProtocol.PREFIX + "{\"metrics\":{\"requests\":1000,\"cpu\":-2.5e-3}"
                + environment).orElseThrow().metrics()).containsEntry("requests", 1000.0).containsEntry("cpu", -0.0025);
    }

    @Test
    void experimentFileRoundTripsItsTrials() throws Exception {
        TrialResult result = new TrialResult("with", 3, TrialStatus.FAILED, Instant.parse("2025-05-01T10:00:00Z"),
                Instant.parse("2025-05-01T10:00:07.5Z"), 4242, Map.of("gc_count", 1.0), Map.of("host", "h"),
                "exited with status 1");
        java.nio.file.Path file = java.nio.file.Files.createTempFile("experiment", ".json");
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), Workload.DEFAULTS), 2);

        ExperimentJson.write(file, plan, List.of(result));
        String text = java.nio.file.Files.readString(file);

        assertThat(ExperimentJson.readTrials(text)).containsExactly(result);
        assertThat(text).contains("\"start\" : \"2025-05-01T10:00:00Z\"", "\"variant\" : \"with\"");
        assertThatThrownBy(() -> ExperimentJson.readTrials("{\"trials\": 3}"))
                .hasMessageStartingWith("not an experiment file of perflab ab --out");
    }

    @Test
    void experimentFileOfAPairedDesignCarriesPairAndWindow() throws Exception {
        TrialResult window = new TrialResult("without", 5, TrialStatus.OK, Instant.parse("2025-05-01T10:00:00Z"),
                Instant.parse("2025-05-01T10:00:03Z"), 4242, Map.of("cpu_us_per_req", 31.5), Map.of("host", "h"), null,
                new PairPosition(1, 0, "1", 123_456_789L, -2_000_000L, true));
        TrialResult failed = new TrialResult("with", 6, TrialStatus.FAILED, null, null, -1, Map.of(), Map.of(),
                "its pair failed", new PairPosition(2, null, null, null, null, false));
        java.nio.file.Path file = java.nio.file.Files.createTempFile("experiment", ".json");
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS), 4)
                .withDesign(ExperimentDesign.DUET, 3);

        ExperimentJson.write(file, plan, List.of(window, failed));
        String text = java.nio.file.Files.readString(file);

        assertThat(ExperimentJson.readTrials(text)).containsExactly(window, failed);
        assertThat(text).contains("\"design\" : \"duet\"", "\"pairs\" : 4", "\"windowsPerPair\" : 3",
                "\"pair\" : {", "\"index\" : 1", "\"window\" : 0", "\"cpus\" : \"1\"", "\"skewNanos\" : -2000000")
                .doesNotContain("runsPerVariant");
        assertThat(text.substring(text.indexOf("\"with\"", text.indexOf("trials")))).doesNotContain("skewNanos");
    }

    @Test
    void aPairedPlanSaysWhatItNeeds() {
        EngineVariant engine = EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS);
        ExperimentPlan plan = ExperimentPlan.of(engine, engine, 2);

        assertThat(plan.withDesign(ExperimentDesign.ALTERNATING, 5).pairs()).isEqualTo(2);
        assertThatThrownBy(() -> ExperimentPlan.of(engine, engine, 1).withDesign(ExperimentDesign.DUET, 2))
                .hasMessage("--runs must be ≥ 2 (a variance needs two trials), got 1");
        assertThatThrownBy(() -> plan.withDesign(ExperimentDesign.DUET, 0))
                .hasMessage("--windows-per-pair must be between 1 and 1000, got 0");
        assertThatThrownBy(() -> plan.withDesign(ExperimentDesign.FRESH, 3))
                .hasMessage("--windows-per-pair applies to the paired designs (duet, alternating) only");
        assertThatThrownBy(() -> ExperimentDesign.parse("solo"))
                .hasMessage("--design must be fresh, duet or alternating, got 'solo'");
        assertThat(ExperimentDesign.parse(" Duet ")).isEqualTo(ExperimentDesign.DUET);
    }
}
