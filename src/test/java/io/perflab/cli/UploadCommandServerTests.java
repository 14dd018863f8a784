package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.upload.Fixtures;
import io.perflab.upload.UploadServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code perflab upload} against the real server: the body the command line sends is one the server takes. */
class UploadCommandServerTests extends UploadServer {

    @TempDir
    Path directory;

    @Test
    void twoFilesAreUploadedAsWithoutThenWith() throws Exception {
        // a quote, a semicolon and a line break in a file name must not break the part's header
        Path without = Files.writeString(directory.resolve("kudu \"old\"; run.txt"),
                Fixtures.read("rpcbench-kudu.txt"));
        Path with = Files.writeString(directory.resolve("perflab\nnew.txt"), Fixtures.read("rpcbench-perflab.txt"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int status = PerfLabCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(
                "upload", "--server", base(), "--token", newToken("cli-upload"), "--benchmark", "cli-pair",
                without.toString(), with.toString());

        assertThat(status).as(err.toString()).isZero();
        long id = jdbc.sql("SELECT MAX(id) FROM experiment WHERE benchmark = 'cli-pair'").query(Long.class).single();
        assertThat(out.toString()).contains("Uploaded experiment " + id);
        // rpcbench-kudu.txt has two runs, rpcbench-perflab.txt three
        assertThat(samples(id, "reqs_per_sec", "without")).isEqualTo(2);
        assertThat(samples(id, "reqs_per_sec", "with")).isEqualTo(3);
    }
}
