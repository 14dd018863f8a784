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

    /** The server's message named ?format= and git.branch, which a user of the command line sets with flags. */
    @Test
    void theServersMessagesNameTheFlagsThatSetWhatTheyNameOf() throws Exception {
        Path numbers = Files.writeString(directory.resolve("numbers.txt"), "1\n2\n3\n");
        String token = newToken("cli-flags");
        StringWriter err = new StringWriter();

        int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true))
                .execute("upload", "--server", base(), "--token", token, "--benchmark", "cli-flags",
                        numbers.toString());

        assertThat(status).isEqualTo(ServerOptions.EXIT_SERVER_ERROR);
        assertThat(err.toString()).contains("the server answered 400: Cannot tell the format of the upload",
                "pass --format with one of: json, jmh").doesNotContain("?format=");

        StringWriter branch = new StringWriter();
        Path csv = Files.writeString(directory.resolve("b.csv"), "metric,value\nlat,1\nlat,2\n");
        PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(branch, true)).execute(
                "upload", "--server", base(), "--token", token, "--benchmark", "cli-flags", "--git-branch",
                "b".repeat(201), csv.toString());
        assertThat(branch.toString()).contains("the server answered 400: --git-branch is longer than 200 "
                + "characters").doesNotContain("git.branch");
        // the side's label was named as the server's field, 'with.label', which no flag of the command line is
        StringWriter label = new StringWriter();
        PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(label, true)).execute(
                "upload", "--server", base(), "--token", token, "--benchmark", "cli-flags", "--variant",
                "v\u001b[2J", csv.toString());
        assertThat(label.toString()).contains("the server answered 400: --variant holds a control character (U+001B)")
                .doesNotContain("with.label");
    }
}
