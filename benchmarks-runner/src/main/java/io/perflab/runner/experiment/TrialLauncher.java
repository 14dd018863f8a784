package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialMain;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * How to start a trial JVM: the java binary, then the plan's and the variant's flags, then this launcher's entry
 * arguments (a jar or a classpath and main class, plus any leading arguments such as {@code trial}), then the
 * trial's spec as one JSON argument.
 *
 * @param entryArguments e.g. {@code -jar perflab.jar trial} or {@code -cp … io.perflab.runner.trial.TrialMain}
 * @param cpus the CPU list trial JVMs are pinned to with {@code taskset -c}, or empty for no pinning
 * @param launcherFlags JVM flags the launcher itself adds before the plan's, such as the class-data sharing archive
 *     of {@link FastStart} (which requests may not set)
 */
public record TrialLauncher(List<String> entryArguments, Optional<String> cpus, List<String> launcherFlags) {

    public TrialLauncher {
        entryArguments = List.copyOf(entryArguments);
        if (entryArguments.isEmpty()) {
            throw new IllegalArgumentException("a trial launcher needs a jar or a main class");
        }
        Objects.requireNonNull(cpus, "cpus");
        launcherFlags = List.copyOf(launcherFlags);
    }

    public TrialLauncher(List<String> entryArguments, Optional<String> cpus) {
        this(entryArguments, cpus, List.of());
    }

    public TrialLauncher(List<String> entryArguments) {
        this(entryArguments, Optional.empty());
    }

    /** This launcher adding {@code flags} to every trial JVM, before the plan's flags. */
    public TrialLauncher withLauncherFlags(List<String> flags) {
        return new TrialLauncher(entryArguments, cpus, flags);
    }

    /**
     * This launcher with every trial JVM started under {@code taskset -c cpus}, e.g. {@code 1} or {@code 0-1}.
     *
     * @throws IllegalArgumentException if {@code taskset} is not on the PATH, the list is malformed, or it names a
     *     CPU this process may not use ({@link CpuList#available its affinity})
     */
    public TrialLauncher pinnedTo(String cpuList) {
        return pinnedTo(cpuList, CpuList.available(Optional.empty()));
    }

    /**
     * As {@link #pinnedTo(String)}, with the CPUs this process may use given. A CPU outside them (a 2-CPU host's
     * 999) would be refused by taskset at every trial, each trial failing without a result.
     */
    TrialLauncher pinnedTo(String cpuList, CpuList allowed) {
        CpuList cpus;
        try {
            // digits, dashes and commas only: CpuList itself would let spaces through to taskset
            if (!cpuList.matches("[0-9]+([-,][0-9]+)*")) {
                throw new IllegalArgumentException(cpuList);
            }
            cpus = CpuList.parse(cpuList);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cpus takes a CPU list such as 1 or 0-1 or 0,2 of CPUs 0 to "
                    + CpuList.MAX_CPU + ", each range from low to high, got '" + cpuList + "'");
        }
        List<Integer> outside = cpus.cpus().stream().filter(cpu -> !allowed.cpus().contains(cpu)).toList();
        if (!outside.isEmpty()) {
            throw new IllegalArgumentException("--cpus " + cpuList + " names CPUs this process may not use ("
                    + new CpuList(outside) + "); it may use " + allowed);
        }
        if (findOnPath("taskset").isEmpty()) {
            throw new IllegalArgumentException("--cpus needs taskset (util-linux), which is not on the PATH");
        }
        return new TrialLauncher(entryArguments, Optional.of(cpuList), launcherFlags);
    }

    static Optional<Path> findOnPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String directory : path.split(File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, program))) {
                return Optional.of(Path.of(directory, program));
            }
        }
        return Optional.empty();
    }

    /** {@code java … -jar jar leadingArgs… <trial arguments>}. */
    public static TrialLauncher jar(Path jar, String... leadingArgs) {
        List<String> args = new ArrayList<>(List.of("-jar", jar.toAbsolutePath().toString()));
        args.addAll(List.of(leadingArgs));
        return new TrialLauncher(args);
    }

    /** {@code java … -cp classpath mainClass leadingArgs… <trial arguments>}. */
    public static TrialLauncher mainClass(String classpath, String mainClass, String... leadingArgs) {
        List<String> args = new ArrayList<>(List.of("-cp", classpath, mainClass));
        args.addAll(List.of(leadingArgs));
        return new TrialLauncher(args);
    }

    /**
     * Launches trials with the code this JVM runs: from an executable Spring Boot jar (whose nested classes are no
     * class path) with {@code -jar perflab.jar trial}, its trial subcommand; otherwise — a test run, an IDE, a
     * manifest-only class-path jar such as Surefire's — with this JVM's class path and {@link TrialMain}.
     */
    public static TrialLauncher ofThisJvm() {
        String classpath = System.getProperty("java.class.path", "");
        boolean singleJar = !classpath.contains(File.pathSeparator) && classpath.endsWith(".jar")
                && Files.isRegularFile(Path.of(classpath));
        if (singleJar && executableBootJar(Path.of(classpath))) {
            return jar(Path.of(classpath), "trial");
        }
        return mainClass(classpath, TrialMain.class.getName());
    }

    private static boolean executableBootJar(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            return manifest != null && manifest.getMainAttributes().getValue("Start-Class") != null;
        } catch (IOException e) {
            return false;
        }
    }

    /** The java binary of this JVM, or of {@code javaHome}. */
    public static Path javaBinary(Path javaHome) {
        Path home = javaHome != null ? javaHome : Path.of(System.getProperty("java.home"));
        return home.resolve("bin").resolve(isWindows() ? "java.exe" : "java");
    }

    private static boolean isWindows() {
        return System.getProperty("os.name", "").startsWith("Windows");
    }

    /** The whole command line of one trial of {@code variant} under {@code plan}. */
    public List<String> command(ExperimentPlan plan, EngineVariant variant) {
        return command(plan.trialJvmArgs(), variant);
    }

    /** The whole command line of one trial of {@code variant} with the plan's common JVM flags {@code jvmArgs}. */
    public List<String> command(List<String> jvmArgs, EngineVariant variant) {
        return command(cpus, jvmArgs, variant, List.of());
    }

    /**
     * The command line of one driven trial JVM of a pair ({@code --driven}, {@link io.perflab.runner.trial.TrialMain}),
     * pinned to {@code pinnedTo} if given, else to this launcher's CPUs if any.
     */
    public List<String> drivenCommand(List<String> jvmArgs, EngineVariant variant, Optional<String> pinnedTo) {
        return command(pinnedTo.or(() -> cpus), jvmArgs, variant, List.of(TrialMain.DRIVEN));
    }

    private List<String> command(Optional<String> pinnedTo, List<String> jvmArgs, EngineVariant variant,
                                 List<String> trialArguments) {
        Objects.requireNonNull(variant, "variant");
        List<String> command = new ArrayList<>();
        pinnedTo.ifPresent(list -> command.addAll(List.of("taskset", "-c", list)));
        command.add(javaBinary(variant.javaHome().orElse(null)).toString());
        command.addAll(launcherFlags);
        command.addAll(jvmArgs);
        command.addAll(variant.jvmArgs());
        command.addAll(entryArguments);
        command.addAll(trialArguments);
        command.add(variant.trialSpec().toJson());
        return command;
    }

    /**
     * Throws unless {@code taskset} is on the PATH: the duet design pins each JVM of a pair to its half of the CPUs.
     */
    static void requireTaskset(String why) {
        if (findOnPath("taskset").isEmpty()) {
            throw new IllegalArgumentException(why + " needs taskset (util-linux), which is not on the PATH");
        }
    }
}
