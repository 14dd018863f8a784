package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.trial.TrialMain;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class FastStartTests {

    @TempDir
    Path cache;

    private final List<String> log = new ArrayList<>();

    @Test
    void aClassPathWithFoldersIsPackedIntoJarsAndArchivedOnceAndTrialJvmsStartFromThem() throws Exception {
        TrialLauncher launcher = TrialLauncher.ofThisJvm();
        List<String> flags = List.of("-Xmx128m", "-XX:+UseSerialGC");

        TrialLauncher prepared = FastStart.prepare(launcher, cache, flags, log::add);
        TrialLauncher again = FastStart.prepare(launcher, cache, flags, log::add);

        assertThat(log).as("packed and archived once").filteredOn(l -> l.startsWith("packing ")).isNotEmpty();
        assertThat(log).filteredOn(l -> l.startsWith("making the class-data sharing archive")).hasSize(1);
        assertThat(log).allMatch(l -> l.startsWith("packing ") || l.startsWith("making the class-data"));
        assertThat(again).isEqualTo(prepared);
        String classPath = prepared.entryArguments().get(1);
        assertThat(classPath.split(File.pathSeparator)).allMatch(e -> e.endsWith(".jar") && Files.isRegularFile(
                Path.of(e)));
        assertThat(classPath).contains(cache.resolve("classes").toString());
        assertThat(prepared.launcherFlags()).hasSize(2).last().isEqualTo("-Xshare:auto");
        Path archive = Path.of(prepared.launcherFlags().get(0).substring("-XX:SharedArchiveFile=".length()));
        assertThat(archive).isRegularFile().hasParent(cache.resolve("classes"));
        List<String> command = prepared.command(flags, EngineVariant.of(io.perflab.rpc.EngineOptions.defaults(),
                io.perflab.runner.rpcbench.Workload.DEFAULTS));
        assertThat(command.subList(1, 5)).containsExactly(prepared.launcherFlags().get(0), "-Xshare:auto", "-Xmx128m",
                "-XX:+UseSerialGC");

        // the archive maps: a JVM told to require it (-Xshare:on) starts from the packed class path and runs
        List<String> check = new ArrayList<>(List.of(command.get(0), prepared.launcherFlags().get(0), "-Xshare:on",
                "-Xmx128m", "-XX:+UseSerialGC", "-cp", classPath, FakeTrial.class.getName(), "--help-is-no-spec"));
        Process process = new ProcessBuilder(check).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(output).isNotZero();
        assertThat(output).as("the JVM started and ran the trial class").contains("spec: is not valid JSON")
                .doesNotContain("Unable to use shared archive");
    }

    @Test
    void aFolderIsPackedAgainOnlyWhenItsFilesChangeAndOnlyTheLastFilesAreKept() throws IOException {
        Path folder = Files.createDirectories(cache.resolve("project").resolve("classes"));
        Files.writeString(Files.createDirectories(folder.resolve("io/perflab")).resolve("A.class"), "one");
        Path jar = Files.writeString(cache.resolve("lib.jar"), "a jar");
        List<String> entry = List.of("-cp", folder + File.pathSeparator + jar + File.pathSeparator
                + cache.resolve("missing"), "Main");

        List<Path> first = FolderPacker.pack(entry, cache, log::add).orElseThrow();
        List<Path> same = FolderPacker.pack(entry, cache, log::add).orElseThrow();
        Files.writeString(folder.resolve("io/perflab/B.class"), "two");
        List<Path> changed = FolderPacker.pack(entry, cache, log::add).orElseThrow();

        assertThat(first).hasSize(2).endsWith(jar.toAbsolutePath());
        assertThat(same).isEqualTo(first);
        assertThat(changed.get(0)).isNotEqualTo(first.get(0));
        assertThat(log).hasSize(2).allMatch(l -> l.startsWith("packing "));
        try (java.util.jar.JarFile packed = new java.util.jar.JarFile(changed.get(0).toFile())) {
            assertThat(packed.stream().map(JarEntry::getName)).containsExactlyInAnyOrder("io/",
                    "io/perflab/", "io/perflab/A.class", "io/perflab/B.class");
        }
        assertThat(FolderPacker.pack(List.of("-cp", jar.toString(), "Main"), cache, log::add)).as("no folder")
                .isEmpty();
        assertThat(FolderPacker.pack(entry, cache, 5, log::add)).as("a folder over the bound").isEmpty();
        assertThat(log).last().asString().startsWith("cannot pack the class path's folders into jars (")
                .contains("holds 6 bytes, more than the 5 a folder may hold");

        for (int i = 0; i < FolderPacker.KEPT + 5; i++) {
            Files.setLastModifiedTime(Files.writeString(cache.resolve("classes").resolve("old-" + i + ".jsa"), ""),
                    FileTime.fromMillis(1_000_000L * (i + 1)));
        }
        FolderPacker.prune(cache.resolve("classes"));
        try (Stream<Path> kept = Files.list(cache.resolve("classes"))) {
            assertThat(kept.map(p -> p.getFileName().toString())).hasSize(FolderPacker.KEPT)
                    .contains(changed.get(0).getFileName().toString()).doesNotContain("old-0.jsa", "old-6.jsa");
        }
    }

    @Test
    void aJarOnlyClassPathHasItsArchiveInCdsAndNothingIsPackedOrMadeWhenItIsThere() throws IOException {
        List<Path> jars = FolderPacker.pack(TrialLauncher.ofThisJvm().entryArguments(), cache, line -> { })
                .orElseThrow();
        TrialLauncher launcher = TrialLauncher.mainClass(String.join(File.pathSeparator,
                jars.stream().map(Path::toString).toList()), TrialMain.class.getName());
        Path archive = Files.createDirectories(cache.resolve("cds"))
                .resolve(FastStart.key(jars, TrialLauncher.javaBinary(null)) + ".jsa");
        Files.writeString(archive, "made before");

        TrialLauncher prepared = FastStart.prepare(launcher, cache, List.of("-Xmx128m"), log::add);

        assertThat(log).isEmpty();
        assertThat(prepared).isEqualTo(launcher.withLauncherFlags(List.of("-XX:SharedArchiveFile=" + archive,
                "-Xshare:auto")));
    }

    /** As a JVM paused at its start ({@code -XX:+PauseAtStartup}) does, this one never says it is ready. */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aTrialJvmThatNeverGetsReadyIsKilledAtTheDeadlineAndTrialsStartWithoutAnArchive() throws IOException {
        List<Path> jars = FolderPacker.pack(TrialLauncher.ofThisJvm().entryArguments(), cache, line -> { })
                .orElseThrow();
        TrialLauncher launcher = TrialLauncher.mainClass(String.join(File.pathSeparator,
                jars.stream().map(Path::toString).toList()), FakeTrial.class.getName());
        List<String> flags = List.of("-D" + FakeTrial.BEHAVIOUR + "=hang", "-Xmx64m", "-XX:+UseSerialGC");
        long start = System.nanoTime();

        TrialLauncher prepared = FastStart.prepare(launcher, cache, flags, Duration.ofSeconds(2), log::add);

        assertThat(prepared).isEqualTo(launcher);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(log).hasSize(2).last().asString()
                .startsWith("could not make the class-data sharing archive: its trial JVM (")
                .endsWith(" …) did not finish within 2 s and was killed; trial JVMs start without it");
        List<ProcessHandle> hanging = ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().orElse("").contains(FakeTrial.BEHAVIOUR + "=hang")).toList();
        for (ProcessHandle process : hanging) {
            process.onExit().orTimeout(10, TimeUnit.SECONDS).join();
        }
        try (Stream<Path> archives = Files.list(cache.resolve("cds"))) {
            assertThat(archives).as("no archive, not even a temporary one").isEmpty();
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aTrialJvmThatDiesBeforeItIsReadyIsReportedWithWhatItSaid() throws IOException {
        List<Path> jars = FolderPacker.pack(TrialLauncher.ofThisJvm().entryArguments(), cache, line -> { })
                .orElseThrow();
        TrialLauncher launcher = TrialLauncher.mainClass(String.join(File.pathSeparator,
                jars.stream().map(Path::toString).toList()), FakeTrial.class.getName());
        List<String> flags = List.of("-D" + FakeTrial.BEHAVIOUR + "=crash", "-Xmx64m", "-XX:+UseSerialGC");

        TrialLauncher prepared = FastStart.prepare(launcher, cache, flags, Duration.ofSeconds(30), log::add);

        assertThat(prepared).isEqualTo(launcher);
        assertThat(log).hasSize(2).last().asString()
                .startsWith("could not make the class-data sharing archive (")
                .contains(" …): trial JVM exited with status 3 while the runner waited for it to warm up and say so "
                        + "within 30 s, the time making the archive may take; trial JVMs start without it\n"
                        + "--- last output ---\n")
                .endsWith("java.lang.IllegalStateException: the engine fell over while warming up");
        try (Stream<Path> archives = Files.list(cache.resolve("cds"))) {
            assertThat(archives).as("no archive, not even a temporary one").isEmpty();
        }
    }

    @Test
    void theKeyOfAFileChangesWhenTheFileDoes() throws IOException {
        Path jar = Files.writeString(cache.resolve("a.jar"), "one");
        String before = FastStart.key(List.of(jar), null);
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 5000));

        assertThat(FastStart.key(List.of(jar), null)).isNotEqualTo(before).hasSize(16);
        assertThat(FastStart.jarClassPath(List.of("-cp", jar + File.pathSeparator + cache, "Main"))).isEmpty();
        assertThat(FastStart.jarClassPath(List.of("-cp", jar.toString(), "Main"))).contains(List.of(jar));
        assertThat(FastStart.jarClassPath(List.of("-jar", jar.toString()))).isEmpty();
    }
}
