package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

class TrialProcessOptionsTests {

    @TempDir
    Path directory;

    /** A command of the options alone, as ab, peers and calibrate take them, that checks its --out file. */
    @Command(name = "probe")
    static final class OutProbe implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        TrialProcessOptions options = new TrialProcessOptions();

        @Override
        public Integer call() {
            options.out(spec);
            return 0;
        }
    }

    private String errorsOf(String... args) {
        java.io.StringWriter errors = new java.io.StringWriter();
        CommandLine commandLine = new CommandLine(new OutProbe());
        commandLine.setErr(new java.io.PrintWriter(errors, true));
        assertThat(commandLine.execute(args)).as(errors.toString()).isZero();
        return errors.toString();
    }

    @Test
    void anOutFileThatExistsIsReplacedSayingSo() throws IOException {
        Path existing = directory.resolve("run.json");
        Files.writeString(existing, "{}");
        // it was replaced without a word
        assertThat(errorsOf("--out", existing.toString())).isEqualTo("perflab probe: --out " + existing
                + ": the file exists and will be replaced" + System.lineSeparator());
        assertThat(errorsOf("--out", directory.resolve("new.json").toString())).isEmpty();
    }

    private String refusalOf(String... args) {
        java.io.StringWriter errors = new java.io.StringWriter();
        CommandLine commandLine = new CommandLine(new OutProbe());
        commandLine.setErr(new java.io.PrintWriter(errors, true));
        assertThat(commandLine.execute(args)).as(errors.toString()).isEqualTo(2);
        return errors.toString();
    }

    @Test
    void aDeviceOrAPipeIsRefusedRatherThanReplacedByTheRunsWrites() throws Exception {
        // each write renames a temporary file onto --out: as root, /dev/null became a file of JSON
        assertThat(refusalOf("--out", "/dev/null")).contains("--out /dev/null: is a device or a pipe, not a file");
        assertThat(Files.isRegularFile(Path.of("/dev/null"))).isFalse();
        Path pipe = directory.resolve("pipe");
        Assumptions.assumeTrue(new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor() == 0);
        assertThat(refusalOf("--out", pipe.toString())).contains("--out " + pipe + ": is a device or a pipe");
    }

    @Test
    void aFolderWhereNoFileCanBeMadeIsRefusedForRootToo() {
        // the permission bits let root write /proc, and every write of the run failed after its first trial
        assertThat(refusalOf("--out", "/proc/run.json")).containsAnyOf("--out /proc/run.json: its folder /proc "
                + "cannot be written", "--out /proc/run.json: no file can be made in its folder /proc (");
    }

    @Test
    void aNameTooLongOnceTheTemporaryFilesEndingIsAddedIsRefused() {
        // 252 characters and .tmp are 256, one more than most file systems take: every write of the run failed
        String name = "r".repeat(247) + ".json";
        assertThat(refusalOf("--out", directory.resolve(name).toString())).contains("--out "
                + directory.resolve(name) + ": no file can be made in its folder " + directory + " (");
        assertThat(directory).isEmptyDirectory();
    }

    @Test
    void aLinkIsFollowedAndALinkToNothingRefused() throws IOException {
        Path file = Files.writeString(directory.resolve("kept.json"), "{}");
        Path link = Files.createSymbolicLink(directory.resolve("link.json"), file.getFileName());
        assertThat(errorsOf("--out", link.toString())).contains("--out " + link + ": the file exists and will be "
                + "replaced (" + file.toRealPath() + ", which it links to)");
        Path dangling = Files.createSymbolicLink(directory.resolve("dangling.json"), Path.of("missing.json"));
        assertThat(refusalOf("--out", dangling.toString())).contains("--out " + dangling + ": a link to a file "
                + "that does not exist");
        try (var left = Files.list(directory)) {
            assertThat(left).as("the check leaves no file behind").extracting(p -> p.getFileName().toString())
                    .containsExactlyInAnyOrder("kept.json", "link.json", "dangling.json");
        }
    }
}
