package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.trial.TrialMain;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FastStartTests {

    @TempDir
    Path cache;

    private final List<String> log = new ArrayList<>();

    @Test
    void aClassPathWithDirectoriesHasNothingToArchiveAndIsLeftAsItIs() {
        TrialLauncher launcher = TrialLauncher.ofThisJvm();

        TrialLauncher prepared = FastStart.prepare(launcher, cache, ExperimentPlan.DEFAULT_JVM_ARGS, log::add);

        assertThat(prepared).isEqualTo(launcher);
        assertThat(log).isEmpty();
    }

    @Test
    void anArchiveIsMadeOncePerClassPathAndGivenToEveryTrialJvm() throws IOException {
        TrialLauncher jars = TrialLauncher.mainClass(jarOnlyClassPath(), TrialMain.class.getName());
        List<String> flags = List.of("-Xmx128m", "-XX:+UseSerialGC");

        TrialLauncher prepared = FastStart.prepare(jars, cache, flags, log::add);
        TrialLauncher again = FastStart.prepare(jars, cache, flags, log::add);

        assertThat(log).singleElement().asString().startsWith("making the class-data sharing archive");
        assertThat(prepared).isEqualTo(again);
        assertThat(prepared.launcherFlags()).hasSize(2).last().isEqualTo("-Xshare:auto");
        Path archive = Path.of(prepared.launcherFlags().get(0).substring("-XX:SharedArchiveFile=".length()));
        assertThat(archive).isRegularFile().hasParent(cache.resolve("cds"));
        List<String> command = prepared.command(flags, EngineVariant.of(io.perflab.rpc.EngineOptions.defaults(),
                io.perflab.runner.rpcbench.Workload.DEFAULTS));
        assertThat(command.subList(1, 5)).containsExactly(prepared.launcherFlags().get(0), "-Xshare:auto", "-Xmx128m",
                "-XX:+UseSerialGC");
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

    /** This test run's class path with every directory packed into a jar: what an extracted executable jar is. */
    private String jarOnlyClassPath() throws IOException {
        List<String> elements = new ArrayList<>();
        int n = 0;
        for (String element : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(element);
            if (Files.isDirectory(path)) {
                Path jar = cache.resolve("classes-" + n++ + ".jar");
                pack(path, jar);
                elements.add(jar.toString());
            } else if (element.endsWith(".jar") && Files.isRegularFile(path)) {
                elements.add(element);
            }
        }
        return String.join(File.pathSeparator, elements);
    }

    private static void pack(Path directory, Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
             Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(directory.relativize(path).toString().replace(File.separatorChar, '/')));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
    }
}
