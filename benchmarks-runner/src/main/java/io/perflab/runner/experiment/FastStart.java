package io.perflab.runner.experiment;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.TrialMain;
import io.perflab.runner.trial.TrialProtocol;
import io.perflab.runner.trial.TrialStatus;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Makes trial JVMs start in a third of the time: a trial JVM started from the executable jar ({@code -jar
 * perflab.jar trial}) loads every class through Spring Boot's nested-jar loader, which class-data sharing cannot
 * archive. So the jar is extracted once ({@code -Djarmode=tools extract}) into a cache directory, trials run
 * {@link TrialMain} from the extracted jar, and a dynamic AppCDS archive of the classes a trial loads is made once
 * per class path and JDK ({@code -XX:ArchiveClassesAtExit}, by one short driven trial before the experiment) and
 * given to every trial JVM ({@code -XX:SharedArchiveFile}, with {@code -Xshare:auto}: a JVM that cannot map it starts
 * without it). Measured on the 2-vCPU host with the trial flags ({@code -Xbatch}): 11.2 s from start to warmed-up
 * (zero warmup) from the executable jar, 5.8 s extracted, 3.7 s extracted with the archive.
 *
 * <p>Anything that fails here is reported and leaves the launcher as it was: a slower start, never a failed
 * experiment. A class path with folders (a test run, an IDE) has its folders packed into jars first
 * ({@link FolderPacker}), since only classes from jars can be archived.
 */
public final class FastStart {

    /** How long making the archive may take. */
    private static final Duration ARCHIVE_TIMEOUT = Duration.ofMinutes(2);
    /** The side the JVM that makes the archive is run as: a pair's channel with that one JVM. */
    private static final VariantName ARCHIVING_SIDE = VariantName.WITHOUT;

    private FastStart() {
    }

    /**
     * {@code launcher} with its trial JVMs started from the extracted jar with the shared archive, both made now in
     * {@code cacheDir} if they are not there yet.
     *
     * @param jvmArgs the plan's JVM flags, with which the archive is made
     * @param log told what is being done and what could not be
     */
    public static TrialLauncher prepare(TrialLauncher launcher, Path cacheDir, List<String> jvmArgs,
                                        Consumer<String> log) {
        return prepare(launcher, cacheDir, jvmArgs, ARCHIVE_TIMEOUT, log);
    }

    /**
     * As {@link #prepare(TrialLauncher, Path, List, Consumer)}, with {@code archiveTimeout} for the trial JVM that
     * makes the archive instead of two minutes.
     */
    static TrialLauncher prepare(TrialLauncher launcher, Path cacheDir, List<String> jvmArgs, Duration archiveTimeout,
                                 Consumer<String> log) {
        TrialLauncher extracted = launcher;
        List<String> entry = launcher.entryArguments();
        if (entry.size() >= 2 && entry.get(0).equals("-jar")) {
            Optional<Path> jar = extract(Path.of(entry.get(1)), cacheDir, log);
            if (jar.isEmpty()) {
                return launcher;
            }
            extracted = new TrialLauncher(List.of("-cp", jar.get().toString(), TrialMain.class.getName()),
                    launcher.cpus(), launcher.launcherFlags());
        }
        Optional<List<Path>> classPath = jarClassPath(extracted.entryArguments());
        boolean packed = classPath.isEmpty();
        Path archives = cacheDir.resolve(packed ? "classes" : "cds");
        if (packed) {
            classPath = FolderPacker.pack(extracted.entryArguments(), cacheDir, log);
            if (classPath.isEmpty()) {
                return extracted;
            }
            List<String> jars = new ArrayList<>(extracted.entryArguments());
            jars.set(1, String.join(File.pathSeparator, classPath.get().stream().map(Path::toString).toList()));
            extracted = new TrialLauncher(jars, extracted.cpus(), extracted.launcherFlags());
        }
        Path archive;
        try {
            archive = archives.resolve(key(classPath.get(), TrialLauncher.javaBinary(null)) + ".jsa");
        } catch (IOException e) {
            log.accept("cannot read the class path to name its class-data sharing archive: " + e.getMessage());
            return extracted;
        }
        if (!Files.isRegularFile(archive) && !makeArchive(extracted, archive, jvmArgs, archiveTimeout, log)) {
            return extracted;
        }
        if (packed) {
            FolderPacker.prune(archives);
        }
        List<String> flags = new ArrayList<>(extracted.launcherFlags());
        flags.add("-XX:SharedArchiveFile=" + archive);
        flags.add("-Xshare:auto");
        return extracted.withLauncherFlags(flags);
    }

    /** The default cache directory: {@code $XDG_CACHE_HOME/perflab}, else {@code ~/.cache/perflab}. */
    public static Path defaultCacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        return (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache"))
                .resolve("perflab");
    }

    /** The executable jar extracted under {@code cacheDir}, once per jar (path, size, time): the application jar. */
    static Optional<Path> extract(Path jar, Path cacheDir, Consumer<String> log) {
        try {
            Path target = cacheDir.resolve("jar").resolve(key(List.of(jar.toAbsolutePath()), null));
            Path applicationJar = target.resolve(jar.getFileName().toString());
            if (Files.isRegularFile(applicationJar)) {
                return Optional.of(applicationJar);
            }
            log.accept("extracting " + jar.getFileName() + " once into " + target + " so that trial JVMs start "
                    + "from plain jars");
            Path temporary = Files.createDirectories(target.getParent()).resolve(target.getFileName() + ".tmp");
            deleteRecursively(temporary);
            List<String> command = List.of(TrialLauncher.javaBinary(null).toString(), "-Djarmode=tools", "-jar",
                    jar.toAbsolutePath().toString(), "extract", "--destination", temporary.toString());
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(ARCHIVE_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0
                    || !Files.isRegularFile(temporary.resolve(jar.getFileName().toString()))) {
                process.destroyForcibly();
                log.accept("could not extract " + jar + " (" + String.join(" ", command) + "); trial JVMs start "
                        + "from the executable jar");
                return Optional.empty();
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
            return Optional.of(applicationJar);
        } catch (IOException e) {
            log.accept("could not extract " + jar + ": " + e.getMessage()
                    + "; trial JVMs start from the executable jar");
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * The jars of a {@code -cp} entry, or empty when it names a folder (see {@link FolderPacker}) or is no class path.
     */
    static Optional<List<Path>> jarClassPath(List<String> entryArguments) {
        if (entryArguments.size() < 2 || !entryArguments.get(0).equals("-cp")) {
            return Optional.empty();
        }
        List<Path> jars = new ArrayList<>();
        for (String element : entryArguments.get(1).split(File.pathSeparator)) {
            Path path = Path.of(element);
            if (element.isEmpty() || !element.endsWith(".jar") || !Files.isRegularFile(path)) {
                return Optional.empty();
            }
            jars.add(path.toAbsolutePath());
        }
        return Optional.of(jars);
    }

    /**
     * Runs one short driven trial with {@code -XX:ArchiveClassesAtExit} — warmed up for a second, one window —
     * so that the archive holds what warmup and windows load; keeps the archive only if that trial went through
     * within {@code timeout}. The deadline holds for every wait, for its ready line too: a JVM that stalls before
     * it prints one (a debugger's {@code -XX:+PauseAtStartup} among the flags) is killed with what it started. The
     * JVM is spoken to through a {@link PairChannel} of its own, as a pair's are, so that its ready line is awaited,
     * checked and reported in one place, and its last output says why it failed.
     */
    private static boolean makeArchive(TrialLauncher launcher, Path archive, List<String> jvmArgs, Duration timeout,
                                       Consumer<String> log) {
        log.accept("making the class-data sharing archive " + archive + " once for this class path and JDK");
        Workload workload = Workload.DEFAULTS.withClientThreads(2).withWarmup(Warmup.fixed(Duration.ofSeconds(1)))
                .withRun(Duration.ofMillis(500));
        // one temporary file per process: two servers or test JVMs may make the same archive at once
        Path temporary = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        List<String> flags = new ArrayList<>(jvmArgs);
        flags.add("-XX:ArchiveClassesAtExit=" + temporary);
        List<String> command = new TrialLauncher(launcher.entryArguments()).drivenCommand(flags,
                EngineVariant.of(EngineOptions.defaults(), workload), Optional.empty());
        String shown = String.join(" ", command.subList(0, Math.min(command.size(), 3))) + " …";
        long deadline = System.nanoTime() + timeout.toNanos();
        String timedOut = "could not make the class-data sharing archive: its trial JVM (" + shown + ") did not "
                + "finish within " + timeout.toSeconds() + " s and was killed; trial JVMs start without it";
        PairChannel channel = new PairChannel(new TrialProcesses(), System::nanoTime);
        Set<VariantName> side = EnumSet.of(ARCHIVING_SIDE);
        try {
            Files.createDirectories(archive.getParent());
            Files.deleteIfExists(temporary);
            channel.start(ARCHIVING_SIDE, command);
            channel.awaitReady(side, deadline, timeout.toSeconds() + " s, the time making the archive may take");
            long start = System.nanoTime() + 100_000_000L;
            channel.send(ARCHIVING_SIDE, TrialProtocol.windowCommand(0, start, start + workload.run().toNanos()));
            channel.awaitWindows(side, 0, deadline, timeout);
            channel.send(ARCHIVING_SIDE, TrialProtocol.EXIT);
            TrialSession session = channel.session(ARCHIVING_SIDE);
            long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            Integer status = session.awaitExit(Math.max(0, leftMillis));
            if (status == null) {
                log.accept(timedOut);
                return false;
            }
            if (status == 0 && Files.isRegularFile(temporary)) {
                Files.move(temporary, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                return true;
            }
            session.end();
            log.accept("could not make the class-data sharing archive (" + shown + "): trial JVM exited with status "
                    + status + (status == 0 ? " without writing it" : "") + "; trial JVMs start without it"
                    + TrialOutput.suffix(session.tail()));
        } catch (PairFailure f) {
            if (f.status == TrialStatus.TIMED_OUT) {
                log.accept(timedOut);
            } else if (f.status != TrialStatus.CANCELLED) {
                TrialSession session = channel.session(ARCHIVING_SIDE);
                if (session != null) {
                    session.end();
                }
                log.accept("could not make the class-data sharing archive (" + shown + "): " + f.getMessage()
                        + "; trial JVMs start without it" + TrialOutput.suffix(session == null ? "" : session.tail()));
            }
        } catch (IOException e) {
            log.accept("could not make the class-data sharing archive: " + e.getMessage()
                    + "; trial JVMs start without it");
        } finally {
            channel.end();
        }
        try {
            // a JVM that failed still writes what it loaded at its exit: an archive of a failed run, kept by none
            Files.deleteIfExists(temporary);
        } catch (IOException e) {
            log.accept("could not delete " + temporary + ": " + e.getMessage());
        }
        return false;
    }

    /** A name for the files behind {@code paths} as they are now (path, size, time) and the JDK of {@code java}. */
    static String key(List<Path> paths, Path java) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Path path : paths) {
                digest.update((path + "|" + Files.size(path) + "|" + Files.getLastModifiedTime(path).toMillis() + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            if (java != null) {
                digest.update((java.toRealPath() + "|" + System.getProperty("java.vm.version"))
                        .getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (var paths = Files.walk(directory)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
