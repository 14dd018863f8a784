package io.perflab.runner.experiment;

import io.perflab.runner.metering.ResourceUsage;
import io.perflab.runner.trial.HostEnvironment;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.ParsedMetric;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * One run of a command variant: {@code /bin/sh -c command} in the variant's directory and environment, metered with
 * {@code getrusage(RUSAGE_CHILDREN)} deltas, so command runs must not overlap with other children of this JVM. With
 * a metrics format, the run's standard output (or the file it wrote to {@value CommandVariant#OUTPUT_PLACEHOLDER})
 * goes to a fresh temporary file, which the {@link MetricsReader} reads once the run exited 0; the file is deleted
 * after the trial.
 *
 * <p>The shell's environment carries a fresh {@link ProcessTag}, which every process it starts inherits. Whatever
 * carries it and still runs when the trial ends — a background job or server the command did not stop, however the
 * trial ended — is killed, so that it cannot disturb the next trial. When the shell exited by itself, they are
 * counted in the trial's environment ({@value ProcessTag#LEFTOVERS}): the command leaked them. Such a trial still
 * counts as its exit status says: what it left did not change the run that was measured (their CPU time was never
 * in the figures, which are the shell's and its waited-for descendants'), and a command that starts a daemon on
 * purpose would otherwise fail every trial. A trial timed out or cancelled was killed whole, so nothing is counted.
 */
final class CommandTrial {

    static final ProcessBuilder.Redirect NO_INPUT = ProcessBuilder.Redirect.from(new File("/dev/null"));

    /** The most output a run may print for its metrics to be read: that of an upload. */
    static final long MAX_OUTPUT_BYTES = 16L << 20;

    /** The most of a failed run's output read to quote its last lines: far more than they take. */
    static final int END_BYTES = 64 << 10;

    private final TrialProcesses processes;
    private final Clock clock;
    private final LongSupplier nanoClock;
    private final MetricsReader reader;

    CommandTrial(TrialProcesses processes, Clock clock, LongSupplier nanoClock, MetricsReader reader) {
        this.processes = processes;
        this.clock = clock;
        this.nanoClock = nanoClock;
        this.reader = reader;
    }

    /** Runs {@code variant} once as the trial {@code ordinal} of {@code label}. */
    TrialResult run(CommandVariant variant, String label, int ordinal, Duration timeout) {
        Map<String, String> environment = new LinkedHashMap<>(HostEnvironment.capture());
        environment.remove("jvm_flags");
        environment.remove("jvm_version");
        environment.put("command", variant.command());
        variant.directory().ifPresent(directory -> environment.put("directory", directory.toString()));
        variant.metricsFormat().ifPresent(format -> environment.put("metrics_format", format));
        Instant start = clock.instant();
        if (variant.directory().isPresent() && !Files.isDirectory(variant.directory().get())) {
            return notStarted(label, ordinal, start, clock, "the working directory " + variant.directory().get()
                    + " does not exist or is not a directory");
        }
        Path output = null;
        try {
            if (variant.metricsFormat().isPresent()) {
                output = Files.createTempFile("perflab-trial-" + ordinal + "-", ".out");
            }
            return run(variant, label, ordinal, timeout, environment, start, Optional.ofNullable(output));
        } catch (IOException e) {
            return notStarted(label, ordinal, start, clock, "could not create a file for the output: "
                    + e.getMessage());
        } finally {
            deleteQuietly(output);
        }
    }

    private TrialResult run(CommandVariant variant, String label, int ordinal, Duration timeout,
                            Map<String, String> environment, Instant start, Optional<Path> output) {
        String commandLine = variant.writesOutputFile()
                ? variant.command().replace(CommandVariant.OUTPUT_PLACEHOLDER, shellQuoted(output.orElseThrow()))
                : variant.command();
        ProcessBuilder builder = new ProcessBuilder(List.of("/bin/sh", "-c", commandLine)).redirectInput(NO_INPUT);
        builder.environment().putAll(variant.environment());
        ProcessTag tag = ProcessTag.create();
        builder.environment().put(ProcessTag.VARIABLE, tag.value());
        variant.directory().ifPresent(directory -> builder.directory(directory.toFile()));
        boolean stdoutToFile = output.isPresent() && !variant.writesOutputFile();
        builder.redirectOutput(stdoutToFile ? ProcessBuilder.Redirect.to(output.get().toFile())
                : output.isPresent() ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.DISCARD);
        ResourceUsage before = ResourceUsage.children();
        long startNanos = nanoClock.getAsLong();
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return notStarted(label, ordinal, start, clock, "could not start /bin/sh: " + e.getMessage());
        }
        OutputTail stderr = OutputTail.start(process.getErrorStream(), "trial-" + ordinal + "-stderr");
        OutputTail stdout = OutputTail.start(process.getInputStream(), "trial-" + ordinal + "-stdout");
        TrialProcesses.Ending ending = processes.await(process, Optional.of(tag), timeout);
        long elapsedNanos = nanoClock.getAsLong() - startNanos;
        ResourceUsage usage = ResourceUsage.children().minus(before);
        // before the output is drained: a process left running may hold the shell's pipes open (a trial that timed
        // out or was cancelled had them killed by processes.await)
        List<String> leftovers = ending == TrialProcesses.Ending.EXITED ? tag.kill() : List.of();
        TrialOutput.drain(stderr, stdout);
        Instant end = clock.instant();
        String tail = TrialOutput.tail(stderr, stdout);
        if (ending != TrialProcesses.Ending.EXITED) {
            return new TrialResult(label, ordinal, ending.status, start, end, process.pid(),
                    Map.of(), environment, ending.describe(timeout) + TrialOutput.suffix(tail));
        }
        environment.put(ProcessTag.LEFTOVERS, ProcessTag.describe(leftovers));
        int exit = process.exitValue();
        Map<String, Double> measured = measured(elapsedNanos, usage);
        if (exit != 0) {
            measured.put(MetricKeys.EXIT_STATUS, (double) exit);
            String printed = stdoutToFile && tail.isEmpty() ? TrialOutput.lastLines(readEnd(output.get())) : tail;
            return new TrialResult(label, ordinal, TrialStatus.FAILED, start, end, process.pid(), measured,
                    environment, "command exited with status " + exit + TrialOutput.suffix(printed));
        }
        TrialResult ok = new TrialResult(label, ordinal, TrialStatus.OK, start, end, process.pid(), measured,
                environment, null);
        return output.isEmpty() ? ok : readMetrics(ok, variant, output.get(), tail);
    }

    /**
     * {@code ok} with the metrics the run printed to {@code output}, or failed with the reader's message and the
     * output's last lines ({@code tail}: the run's error output, quoted when the output is empty or too large).
     */
    private TrialResult readMetrics(TrialResult ok, CommandVariant variant, Path output, String tail) {
        String format = variant.metricsFormat().orElseThrow();
        String where = variant.writesOutputFile() ? "the file it wrote to " + CommandVariant.OUTPUT_PLACEHOLDER
                : "its standard output";
        String problem;
        try {
            long size = Files.size(output);
            String text = size > MAX_OUTPUT_BYTES ? "" : read(output);
            if (size > MAX_OUTPUT_BYTES) {
                problem = where + " holds " + size + " bytes; at most " + MAX_OUTPUT_BYTES + " are read"
                        + TrialOutput.suffix(tail);
            } else if (text.isBlank()) {
                problem = where + " is empty" + TrialOutput.suffix(tail);
            } else {
                try {
                    return withReading(ok, reader.read(format, text), where);
                } catch (IllegalArgumentException e) {
                    problem = e.getMessage() + TrialOutput.suffix(TrialOutput.lastLines(text));
                }
            }
        } catch (IOException e) {
            problem = "cannot read " + where + ": " + e.getMessage();
        }
        return new TrialResult(ok.variant(), ok.ordinal(), TrialStatus.FAILED, ok.start(), ok.end(), ok.pid(),
                ok.metrics(), ok.environment(), "the command's output is not " + format + " output as PerfLab reads "
                + "it (" + where + "): " + problem);
    }

    /**
     * {@code result} with the metrics of {@code reading} in front of the measured ones: their means as samples, the
     * metrics themselves, and what the output said about the run in the environment ({@code output.mode} …).
     */
    private static TrialResult withReading(TrialResult result, MetricsReader.Reading reading, String where) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (Map.Entry<String, ParsedMetric> metric : reading.metrics().entrySet()) {
            if (MetricKeys.measuredOfCommands(metric.getKey())) {
                throw new IllegalArgumentException(where + " has a metric named '" + metric.getKey() + "', which is "
                        + "what PerfLab calls a figure it measures of every command; rename it in the output");
            }
            metrics.put(metric.getKey(), metric.getValue().mean());
        }
        metrics.putAll(result.metrics());
        Map<String, String> environment = new LinkedHashMap<>(result.environment());
        reading.details().forEach((name, value) -> environment.put("output." + name, value));
        return new TrialResult(result.variant(), result.ordinal(), result.status(), result.start(), result.end(),
                result.pid(), metrics, environment, null, null, reading.metrics());
    }

    private static Map<String, Double> measured(long elapsedNanos, ResourceUsage usage) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put(MetricKeys.WALL_MS, elapsedNanos / 1e6);
        metrics.put(MetricKeys.USER_CPU_MS, usage.userMicros() / 1e3);
        metrics.put(MetricKeys.SYS_CPU_MS, usage.systemMicros() / 1e3);
        metrics.put(MetricKeys.CPU_MS, usage.cpuMicros() / 1e3);
        metrics.put(MetricKeys.CTX_SWITCHES, (double) usage.contextSwitches());
        metrics.put(MetricKeys.VOLUNTARY_CTX_SWITCHES, (double) usage.voluntaryContextSwitches());
        metrics.put(MetricKeys.INVOLUNTARY_CTX_SWITCHES, (double) usage.involuntaryContextSwitches());
        return metrics;
    }

    /** The file's text; malformed UTF-8 is replaced, so that any output can be quoted. */
    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * The last lines of the file, from at most its last {@value #END_BYTES} bytes (a line cut by that start is left
     * out): a failed run's output is quoted whatever its size. Malformed UTF-8 is replaced, as {@link #read} does.
     */
    static String readEnd(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            long from = Math.max(0, size - END_BYTES);
            ByteBuffer end = ByteBuffer.allocate((int) (size - from));
            while (end.hasRemaining() && channel.read(end, from + end.position()) >= 0) {
                // read until the buffer is full or the file ends (it may have shrunk meanwhile)
            }
            String text = new String(end.array(), 0, end.position(), StandardCharsets.UTF_8);
            int lineBreak = from == 0 ? -1 : text.indexOf('\n');
            return from == 0 ? text : lineBreak < 0 ? "" : text.substring(lineBreak + 1);
        } catch (IOException e) {
            return "";
        }
    }

    /** {@code path} as one word of {@code /bin/sh}. */
    static String shellQuoted(Path path) {
        return "'" + path.toString().replace("'", "'\\''") + "'";
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a temporary file left behind is harmless; the trial's result is what matters
        }
    }

    static TrialResult notStarted(String label, int ordinal, Instant start, Clock clock, String error) {
        return new TrialResult(label, ordinal, TrialStatus.FAILED, start, clock.instant(), -1, Map.of(), Map.of(),
                error);
    }
}
