package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.ParsedMetric;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Command trials leave nothing running: what a command started and did not stop — a background job, a process that
 * detached itself and was re-parented to init — is killed when its trial ends, however it ends, and the trial says
 * how many. Each command's processes carry a marker argument of their own ({@code sleep 600.1xx}), found in
 * {@code /proc} and killed after each test whatever it asserted.
 */
class CommandLeftoverTests {

    /** Reads lines {@code n value}. */
    private static final MetricsReader NUMBERS = new MetricsReader() {
        @Override
        public Set<String> formats() {
            return Set.of("numbers");
        }

        @Override
        public Reading read(String format, String output) {
            List<Double> values = output.lines().filter(line -> line.startsWith("n "))
                    .map(line -> Double.parseDouble(line.substring(2).strip())).toList();
            if (values.isEmpty()) {
                throw new IllegalArgumentException("no line 'n value'");
            }
            return new Reading(Map.of("n", new ParsedMetric("", false, values)), Map.of());
        }
    };

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** A background job may be killed before its forked shell has become {@code sleep}. */
    private static final String ONE_SLEEP = "1 killed: (sleep|sh)";

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final TrialProcesses processes = new TrialProcesses();
    private final CommandTrial trials = new CommandTrial(processes, Clock.systemUTC(), System::nanoTime, NUMBERS);
    private final List<String> markers = new ArrayList<>();

    @BeforeEach
    void needsProc() {
        Assumptions.assumeTrue(ProcessTag.available(), "/proc is needed to find a trial's processes");
    }

    @AfterEach
    void killWhatIsLeft() {
        scheduler.shutdownNow();
        markers.forEach(marker -> withArgument(marker).forEach(ProcessHandle::destroyForcibly));
    }

    @Test
    void aBackgroundJobStillRunningWhenTheCommandExitsIsKilledAndCounted() {
        String sleep = marker("600.101");

        TrialResult result = trials.run(new CommandVariant("sleep " + sleep + " & echo done"), "with", 0, TIMEOUT);

        assertThat(result.status()).isEqualTo(TrialStatus.OK);
        assertThat(withArgument(sleep)).as("processes left running").isEmpty();
        assertThat(result.environment().get(ProcessTag.LEFTOVERS)).matches(ONE_SLEEP);
        assertThat(result.metrics()).containsKeys(MetricKeys.COMMAND.toArray(String[]::new));
    }

    @Test
    void aProcessThatDetachedItselfIsKilledWhenTheCommandExits() {
        String sleep = marker("600.102");

        TrialResult result = trials.run(new CommandVariant("(sleep " + sleep + " &); echo done"), "with", 0,
                TIMEOUT);

        assertThat(result.status()).isEqualTo(TrialStatus.OK);
        assertThat(withArgument(sleep)).as("processes left running").isEmpty();
        assertThat(result.environment().get(ProcessTag.LEFTOVERS)).matches(ONE_SLEEP);
    }

    @Test
    void aProcessThatLeftTheShellsSessionIsKilledWhenTheCommandExits() {
        Assumptions.assumeTrue(TrialLauncher.findOnPath("setsid").isPresent(), "needs setsid (util-linux)");
        String sleep = marker("600.109");

        TrialResult result = trials.run(new CommandVariant("setsid -f sleep " + sleep + "; echo done"), "with", 0,
                TIMEOUT);

        assertThat(result.status()).isEqualTo(TrialStatus.OK);
        assertThat(withArgument(sleep)).as("processes left running").isEmpty();
        assertThat(result.environment().get(ProcessTag.LEFTOVERS)).matches("1 killed: (sleep|setsid)");
    }

    @Test
    void readsTheStatOfAProcessWhoseNameHoldsParenthesesAndSpaces() {
        String fields = " S 1 42 42 0 -1 2097216 0 0 0 0 0 0 0 0 20 0 1 0 12345 1000 0";

        assertThat(ProcessStat.parse(42, "42 (a) b (c)" + fields)).contains(
                new ProcessStat(42, "a) b (c", 'S', 2097216, 12345));
        assertThat(ProcessStat.parse(42, "42 (k)" + fields)).hasValueSatisfying(stat -> assertThat(
                stat.kernelThread()).isTrue());
        assertThat(ProcessStat.parse(42, "42 (x)" + fields.replace(" S ", " Z "))).hasValueSatisfying(
                stat -> assertThat(stat.alive()).isFalse());
        assertThat(ProcessStat.parse(42, "garbage")).isEmpty();
        assertThat(ProcessStat.parse(42, "42 (short) S 1")).isEmpty();
    }

    @Test
    void findsTheTagAsAWholeEntryOfTheEnvironment() {
        byte[] tag = "\0PERFLAB_TRIAL=ab\0".getBytes(StandardCharsets.ISO_8859_1);

        assertThat(ProcessTag.contains(bytes("PERFLAB_TRIAL=ab\0"), tag)).isTrue();
        assertThat(ProcessTag.contains(bytes("A=1\0PERFLAB_TRIAL=ab"), tag)).isTrue();
        assertThat(ProcessTag.contains(bytes("A=1\0PERFLAB_TRIAL=ab\0B=2\0"), tag)).isTrue();
        assertThat(ProcessTag.contains(bytes("A=1\0PERFLAB_TRIAL=abc\0"), tag)).isFalse();
        assertThat(ProcessTag.contains(bytes("XPERFLAB_TRIAL=ab\0"), tag)).isFalse();
        assertThat(ProcessTag.contains(bytes(""), tag)).isFalse();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void theOutputAndExitStatusOfACommandThatLeftProcessesAreReadAsBefore() {
        String sleep = marker("600.103");
        String other = marker("600.104");
        CommandVariant printing = new CommandVariant("sleep " + sleep + " & (sleep " + other + " &); "
                + "printf 'n 3\\nn 5\\n'", Optional.of("numbers"), Optional.empty(), Map.of());

        TrialResult ok = trials.run(printing, "with", 0, TIMEOUT);
        TrialResult failed = trials.run(new CommandVariant("sleep " + sleep + " & echo broken >&2; exit 3"), "with",
                1, TIMEOUT);

        assertThat(ok.status()).isEqualTo(TrialStatus.OK);
        assertThat(ok.metrics()).containsEntry("n", 4.0);
        assertThat(ok.environment().get(ProcessTag.LEFTOVERS)).matches("2 killed: (sleep|sh)(, (sleep|sh))?");
        assertThat(failed.status()).as("a command that fails still fails").isEqualTo(TrialStatus.FAILED);
        assertThat(failed.metrics()).containsEntry(MetricKeys.EXIT_STATUS, 3.0);
        assertThat(failed.error()).isEqualTo("command exited with status 3\n--- last output ---\nbroken");
        assertThat(failed.environment().get(ProcessTag.LEFTOVERS)).matches(ONE_SLEEP);
        assertThat(withArgument(sleep)).isEmpty();
        assertThat(withArgument(other)).isEmpty();
    }

    @Test
    void aCommandKilledByASignalReportsItAsBefore() {
        TrialResult result = trials.run(new CommandVariant("kill -TERM $$"), "with", 0, TIMEOUT);

        assertThat(result.status()).isEqualTo(TrialStatus.FAILED);
        assertThat(result.metrics()).containsEntry(MetricKeys.EXIT_STATUS, 143.0);
        assertThat(result.environment()).containsEntry(ProcessTag.LEFTOVERS, "0");
    }

    @Test
    void aProcessThatDetachedItselfIsKilledOnTimeout() {
        String detached = marker("600.105");
        String waited = marker("600.106");

        TrialResult result = trials.run(new CommandVariant("(sleep " + detached + " &); sleep " + waited), "with", 0,
                Duration.ofMillis(1500));

        assertThat(result.status()).isEqualTo(TrialStatus.TIMED_OUT);
        assertThat(withArgument(detached)).as("processes left running").isEmpty();
        assertThat(withArgument(waited)).as("processes left running").isEmpty();
        assertThat(result.environment()).as("killed whole, it leaked nothing").doesNotContainKey(ProcessTag.LEFTOVERS);
    }

    @Test
    void aProcessThatDetachedItselfIsKilledOnCancel() {
        String detached = marker("600.107");
        String waited = marker("600.108");
        scheduler.schedule(processes::cancel, 1000, TimeUnit.MILLISECONDS);

        TrialResult result = trials.run(new CommandVariant("(sleep " + detached + " &); sleep " + waited), "with", 0,
                TIMEOUT);

        assertThat(result.status()).isEqualTo(TrialStatus.CANCELLED);
        assertThat(withArgument(detached)).as("processes left running").isEmpty();
        assertThat(withArgument(waited)).as("processes left running").isEmpty();
    }

    @Test
    void aWellBehavedCommandLeavesNothingAndIsMeteredAsBefore() {
        TrialResult result = trials.run(new CommandVariant("sleep 0.01 & wait; echo done"), "with", 0, TIMEOUT);

        assertThat(result.status()).isEqualTo(TrialStatus.OK);
        assertThat(result.environment()).containsEntry(ProcessTag.LEFTOVERS, "0");
        assertThat(result.metrics().get(MetricKeys.WALL_MS)).isGreaterThanOrEqualTo(10);
    }

    private String marker(String seconds) {
        markers.add(seconds);
        return seconds;
    }

    /** Live processes, zombies left out, one of whose arguments is {@code marker}. */
    private static List<ProcessHandle> withArgument(String marker) {
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            return entries.filter(entry -> entry.getFileName().toString().matches("[0-9]+"))
                    .filter(entry -> alive(entry) && arguments(entry).contains(marker))
                    .flatMap(entry -> ProcessHandle.of(Long.parseLong(entry.getFileName().toString())).stream())
                    .toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean alive(Path entry) {
        try {
            String stat = Files.readString(entry.resolve("stat"), StandardCharsets.UTF_8);
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    private static List<String> arguments(Path entry) {
        try {
            return Arrays.asList(new String(Files.readAllBytes(entry.resolve("cmdline")), StandardCharsets.UTF_8)
                    .split("\0"));
        } catch (IOException gone) {
            return List.of();
        }
    }
}
