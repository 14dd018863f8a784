package io.perflab.cli;

import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.FastStart;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.experiment.TrialProcessSettings;
import io.perflab.runner.rpcbench.Seconds;
import io.perflab.system.PrintableText;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * How the trial processes of a local experiment run, shared by {@code perflab ab}, {@code peers} and
 * {@code calibrate}:
 * their timeout, the pause between them, how many may fail, their fixed JVM flags, CPU pinning and the
 * experiment file. Mistakes are {@link IllegalArgumentException}s naming the flag.
 */
final class TrialProcessOptions {

    private static final Duration MIN_TRIAL_TIMEOUT = Duration.ofSeconds(1);

    @Option(names = "--trial-timeout", paramLabel = "S",
            description = "Kill a trial after this many seconds (default: warmup + run + 60).")
    private String trialTimeout;

    @Option(names = "--cooldown", paramLabel = "S", description = "Pause between trials (default: 0).")
    private String cooldown;

    @Option(names = "--max-failures", paramLabel = "N",
            description = "Stop once more trials than this have failed (default: 3).")
    private int maxFailures = ExperimentPlan.DEFAULT_MAX_FAILURES;

    @Option(names = "--jvm-args", paramLabel = "\"flags\"", converter = JvmFlags.class,
            description = "Fixed flags of every trial JVM (default: \"-Xms512m -Xmx512m -XX:+AlwaysPreTouch "
                    + "-XX:+UseSerialGC -Xbatch -XX:-UseDynamicNumberOfCompilerThreads\").")
    private String jvmArgs;

    @Option(names = "--cpus", paramLabel = "LIST",
            description = "Pin every trial JVM to these CPUs with taskset -c (e.g. 1, 0-1); needs taskset.")
    private String cpus;

    @Option(names = "--no-fast-start",
            description = "Start trial JVMs from the executable jar, not from the jar extracted once and the "
                    + "class-data sharing archive made once under ~/.cache/perflab (about 3x slower to start).")
    private boolean noFastStart;

    @Option(names = "--out", paramLabel = "FILE.json",
            description = "Write the experiment and every trial as JSON; rewritten after each trial (exit status "
                    + PlanExecution.EXIT_OUT_NOT_WRITTEN + " when its last write failed). A file that exists is "
                    + "replaced, saying so; never a file the command reads.")
    private Path out;

    private final FastStartPreparation fastStart;

    /** Options whose trial JVMs start fast through {@link FastStart}, its files under its default cache folder. */
    TrialProcessOptions() {
        this((launcher, jvmArgs, log) -> FastStart.prepare(launcher, FastStart.defaultCacheDir(), jvmArgs, log));
    }

    /** Options whose trial JVMs are made to start fast by {@code fastStart}: a test sees when it is asked to. */
    TrialProcessOptions(FastStartPreparation fastStart) {
        this.fastStart = fastStart;
    }

    /** Makes a launcher start its trial JVMs fast for the plan's JVM flags, saying to {@code log} what it does. */
    @FunctionalInterface
    interface FastStartPreparation {
        TrialLauncher prepare(TrialLauncher launcher, List<String> jvmArgs, Consumer<String> log);
    }

    /** {@code plan} with these options applied. */
    <P extends TrialProcessSettings<P>> P applyTo(P plan) {
        P result = plan.withMaxFailures(maxFailures);
        if (trialTimeout != null) {
            Duration timeout = seconds("--trial-timeout", trialTimeout);
            if (timeout.compareTo(MIN_TRIAL_TIMEOUT) < 0) {
                // as the API's trialTimeoutSeconds: below it every trial is killed before its JVM has started
                throw new IllegalArgumentException("--trial-timeout must be at least " + MIN_TRIAL_TIMEOUT.toSeconds()
                        + " s, got " + trialTimeout);
            }
            result = result.withTrialTimeout(timeout);
        }
        if (cooldown != null) {
            result = result.withCooldown(seconds("--cooldown", cooldown));
        }
        if (jvmArgs != null) {
            result = result.withJvmArgs(flags(jvmArgs));
        }
        return result;
    }

    /**
     * Launches trials with this JVM's {@code java} and class path, pinned where {@code --cpus} says.
     *
     * @throws ParameterException naming {@code --cpus} when its list is not one {@code taskset} takes
     */
    TrialLauncher launcher(CommandSpec spec) {
        TrialLauncher launcher = TrialLauncher.ofThisJvm();
        try {
            return cpus == null ? launcher : launcher.pinnedTo(cpus);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /**
     * As {@link #launcher(CommandSpec)}, its trial JVMs started from the extracted jar with the class-data sharing
     * archive ({@link FastStart}) made for {@code jvmArgs}, unless {@code --no-fast-start}.
     */
    TrialLauncher launcher(CommandSpec spec, List<String> jvmArgs) {
        TrialLauncher launcher = launcher(spec);
        if (noFastStart) {
            return launcher;
        }
        PrintWriter err = spec.commandLine().getErr();
        return fastStart.prepare(launcher, jvmArgs, line -> {
            err.println("perflab " + spec.name() + ": " + line);
            err.flush();
        });
    }

    /**
     * The {@code --out} file, or null: checked before any trial runs, since it is first written after the first
     * trial (a run of an hour with a file that cannot be written would save nothing). A file that exists is replaced,
     * as {@code -o} of other tools replaces it, and a line on standard error says so. The file is written whole
     * through a temporary file and a rename, which would replace a device or a pipe ({@code /dev/null}, as root) with
     * a regular file, and a link with the file instead of the file it names: a link is followed, the others refused.
     *
     * @throws ParameterException naming {@code --out} when its folder is missing or cannot be written, or it is a
     *     folder, a device or a pipe itself, or a link to nothing
     */
    Path out(CommandSpec spec) {
        return out(spec, Map.of());
    }

    /**
     * As {@link #out(CommandSpec)}, refusing an {@code --out} that is the file of one of {@code inputs} (flag → its
     * file, e.g. {@code --reference}): the run's first write would replace what it reads, a long run perhaps.
     *
     * @return the file to write: {@code --out}, or the file it links to
     */
    Path out(CommandSpec spec, Map<String, Path> inputs) {
        if (out == null) {
            return null;
        }
        Path file = linked(spec, out);
        Path folder = file.toAbsolutePath().getParent();
        String problem = Files.isDirectory(file) ? "is a folder; give a file name"
                : Files.exists(file) && !Files.isRegularFile(file) ? "is a device or a pipe, not a file: each write "
                        + "of the run (a temporary file renamed onto it) would replace it with a regular file; give "
                        + "the name of a file"
                : folder == null || !Files.isDirectory(folder) ? "its folder " + folder + " does not exist"
                : !Files.isWritable(folder) ? "its folder " + folder + " cannot be written"
                : Files.exists(file) && !Files.isWritable(file) ? "the file exists and cannot be written"
                : temporaryFileProblem(file.toAbsolutePath());
        if (problem != null) {
            throw new ParameterException(spec.commandLine(), "--out " + out + ": " + problem);
        }
        for (Map.Entry<String, Path> input : inputs.entrySet()) {
            if (sameFile(file, input.getValue())) {
                throw new ParameterException(spec.commandLine(), "--out " + out + " is the file of " + input.getKey()
                        + " " + input.getValue() + ": the run would replace it with its own trials; give --out "
                        + "another file");
            }
        }
        if (Files.exists(file)) {
            PrintWriter err = spec.commandLine().getErr();
            err.println(PrintableText.Validator.shown("perflab " + spec.name() + ": --out " + out + ": the file exists "
                    + "and will be replaced" + (file.equals(out) ? "" : " (" + file + ", which it links to)")));
            err.flush();
        }
        return file;
    }

    /** The file a link names, whose folder then holds the temporary file; {@code file} itself when it is no link. */
    private static Path linked(CommandSpec spec, Path file) {
        if (!Files.isSymbolicLink(file)) {
            return file;
        }
        try {
            return file.toRealPath();
        } catch (java.io.IOException e) {
            throw new ParameterException(spec.commandLine(), "--out " + file + ": a link to a file that does not "
                    + "exist; give the file's own name");
        }
    }

    /**
     * Why the temporary file that each write makes beside {@code file} (its name and {@code .tmp}) cannot be made, or
     * null: tried here, since the permission bits say yes to root everywhere, also in {@code /proc} or on a file
     * system mounted read-only, and a name may be too long for the file system only once {@code .tmp} is added.
     */
    private static String temporaryFileProblem(Path file) {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            if (Files.isDirectory(temporary)) {
                return "the run writes it through " + temporary + ", which is a folder";
            }
            if (Files.exists(temporary)) {
                Files.delete(Files.createTempFile(file.getParent(), ".perflab-out-", ".tmp"));
            } else {
                Files.delete(Files.createFile(temporary));
            }
            return null;
        } catch (java.nio.file.FileSystemException e) {
            return "no file can be made in its folder " + file.getParent() + " (" + (e.getReason() != null
                    ? e.getReason() : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : "the file system refused it") + ")";
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return "no file can be made in its folder " + file.getParent() + " (" + e.getMessage() + ")";
        }
    }

    /** Whether both files exist and are one (a link, or {@code ./x.json} and {@code x.json}). */
    private static boolean sameFile(Path a, Path b) {
        try {
            return b != null && Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Whitespace-separated flags. */
    static List<String> flags(String text) {
        return text.isBlank() ? List.of() : Arrays.asList(text.strip().split("\\s+"));
    }

    /**
     * JVM flags separated by white space, each starting with {@code -}: a word without it would start the trial JVM
     * with that word as its main class ({@code "-Xms1g Xmx1g"}), and every trial would fail.
     */
    static final class JvmFlags implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            return PerfLabCommand.converted(() -> {
                for (String flag : flags(text)) {
                    if (!flag.startsWith("-")) {
                        throw new IllegalArgumentException("'" + flag + "' is not a JVM flag (each starts with '-'), "
                                + "in '" + text + "'");
                    }
                }
                return text;
            });
        }
    }

    private static Duration seconds(String flag, String text) {
        try {
            return Seconds.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + " " + e.getMessage());
        }
    }
}
