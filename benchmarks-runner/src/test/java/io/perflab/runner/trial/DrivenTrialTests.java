package io.perflab.runner.trial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A driven trial in this JVM, its commands given up front: the protocol's lines in order. */
class DrivenTrialTests {

    private static final String SPEC = new TrialSpec(EngineOptions.defaults(), Workload.DEFAULTS.withClientThreads(2)
            .withServerReactors(1).withWarmup(Warmup.fixed(Duration.ofMillis(200))).withRun(Duration.ofMillis(300)))
            .toJson();
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void warmsUpThenMeasuresTheWindowsItIsToldAtTheirTimesAndPausesBetween() {
        long t0 = System.nanoTime() + 1500 * MS;
        String commands = String.join("\n", "prepare", TrialProtocol.windowCommand(0, t0, t0 + 300 * MS), "pause",
                TrialProtocol.windowCommand(1, t0 + 600 * MS, t0 + 900 * MS), "exit") + "\n";

        int exit = run(commands);

        List<String> lines = protocolLines();
        assertThat(exit).as(err.toString()).isZero();
        assertThat(lines).hasSize(5);
        TrialProtocol.Ready ready = TrialProtocol.decodeReady(lines.get(0));
        assertThat(lines.remove(1)).isEqualTo(TrialProtocol.PREPARED);
        assertThat(ready.nanoTime()).isLessThan(t0);
        assertThat(ready.environment()).containsKeys("jvm_version", "warmup_seconds", "warmup_evidence");
        TrialProtocol.Window first = TrialProtocol.decodeWindow(lines.get(1));
        assertThat(first.window()).isZero();
        assertThat(first.startNanos()).isBetween(t0, t0 + 200 * MS);
        assertThat(first.endNanos()).isBetween(t0 + 300 * MS, t0 + 500 * MS);
        assertThat(first.metrics()).containsKey(MetricKeys.CPU_US_PER_REQ);
        assertThat(lines.get(2)).isEqualTo(TrialProtocol.PAUSED);
        TrialProtocol.Window second = TrialProtocol.decodeWindow(lines.get(3));
        assertThat(second.window()).isEqualTo(1);
        assertThat(second.startNanos()).isGreaterThanOrEqualTo(t0 + 600 * MS);
        assertThat(second.environment().get("requests")).isNotEqualTo("0");
    }

    @Test
    void aLineThatIsNoCommandEndsTheTrialWithUsageStatus() {
        int exit = run("measure please\n");

        assertThat(exit).isEqualTo(TrialMain.EXIT_USAGE);
        assertThat(err.toString()).contains("not a command of the trial protocol: 'measure please'");
    }

    @Test
    void theRunnerGoingAwayWithoutExitEndsTheTrial() {
        int exit = run("");

        assertThat(exit).isEqualTo(TrialMain.EXIT_CALLS_FAILED);
        assertThat(err.toString()).contains("closed the trial's input without 'exit'");
    }

    @Test
    void commandsAreParsedStrictly() {
        assertThat(TrialProtocol.parseCommand(TrialProtocol.windowCommand(3, 10, 20)))
                .isEqualTo(new TrialProtocol.Command("window", 3, 10, 20));
        assertThat(TrialProtocol.parseCommand(" pause ").name()).isEqualTo("pause");
        assertThatThrownBy(() -> TrialProtocol.parseCommand("window 1 2"))
                .hasMessageContaining("expected 'prepare', 'window K");
        assertThatThrownBy(() -> TrialProtocol.parseCommand("window x 1 2"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private int run(String commands) {
        return TrialMain.run(List.of(TrialMain.DRIVEN, SPEC), new BufferedReader(new StringReader(commands)),
                new PrintWriter(out, true), new PrintWriter(err, true));
    }

    private List<String> protocolLines() {
        return new java.util.ArrayList<>(Arrays.stream(out.toString().split("\n")).filter(TrialProtocol::isProtocolLine)
                .toList());
    }
}
