package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
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
}
