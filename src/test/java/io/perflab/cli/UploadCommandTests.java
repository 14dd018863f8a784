package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** {@code perflab upload} and {@code perflab token} without a server: argument errors, unreachable server, table. */
class UploadCommandTests {

    record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = PerfLabCommand.commandLine(new PrintWriter(out), new PrintWriter(err)).execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void badThresholdNamesTheFlag() throws Exception {
        Path file = Files.createTempFile("bench", ".txt");
        Run run = run("upload", "--server", "http://localhost:1", "--token", "t", "--threshold", "two",
                file.toString());
        assertThat(run.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(run.err()).contains("--threshold: 'two' is not a percentage");
        // Java's own number syntax was taken: a threshold of 8 % and of 2 %
        for (String threshold : new String[] {"0x1p3%", "2d", "2f%", "1e400"}) {
            Run java = run("upload", "--server", "http://localhost:1", "--token", "t", "--threshold", threshold,
                    file.toString());
            assertThat(java.exit()).as(java.err()).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(java.err()).contains("--threshold: '" + threshold + "' is not a percentage ≥ 0, e.g. 2%");
        }
    }

    @Test
    void missingFileNamesIt() throws Exception {
        Run run = run("upload", "--server", "http://localhost:1", "--token", "t", "/no/such/bench.txt");
        assertThat(run.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(run.err()).contains("FILE: cannot read /no/such/bench.txt: no such file");

        // never the regression status: CI would report a performance regression for a wrong path or URL
        Path folder = Files.createTempDirectory("bench");
        Run directory = run("upload", "--server", "http://localhost:1", "--token", "t", "--fail-on-regression",
                folder.toString());
        assertThat(directory.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(directory.err()).contains("FILE: cannot read " + folder + ": a folder, not a file")
                .doesNotContain("Exception");
        Run schemeless = run("upload", "--server", "localhost:8080", "--token", "t", "/no/such/bench.txt");
        assertThat(schemeless.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(schemeless.err()).contains("--server", "'localhost:8080' is not an http:// or https:// URL");
    }

    @Test
    void aDeviceIsRefusedBeforeItIsRead() {
        // /dev/zero was read whole: an OutOfMemoryError's stack trace, exit status 1 (as if regressed)
        Run run = run("upload", "--server", "http://localhost:1", "--token", "t", "--fail-on-regression",
                "/dev/zero");

        assertThat(run.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(run.err()).contains("FILE: cannot read /dev/zero: a device, not a file")
                .doesNotContain("cannot reach");
    }

    @Test
    void aTokenWithAControlCharacterIsNamedWithoutShowingIt() throws Exception {
        Path file = Files.createTempFile("bench", ".txt");
        for (String command : new String[] {"upload", "token"}) {
            // the HTTP client refused the header: "internal error: invalid header value: "Bearer plt_secret…", 70
            Run run = command.equals("upload")
                    ? run("upload", "--server", "http://localhost:1", "--token", "plt_secret\r\nX-Other: 1",
                            file.toString())
                    : run("token", "revoke", "7", "--server", "http://localhost:1", "--token", "plt_secret\u001b");

            assertThat(run.exit()).as(run.err()).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(run.err()).contains("--token: the token given (by --token or $PERFLAB_TOKEN) holds a line "
                    + "break or another control character").doesNotContain("plt_secret", "internal error");
        }
    }

    @Test
    void moreThanTwoFilesAreRefusedBeforeAnyIsSent() throws Exception {
        Path a = Files.createTempFile("bench", ".csv");
        Path b = Files.createTempFile("bench", ".csv");
        Path c = Files.createTempFile("bench", ".csv");

        // the third file was dropped without a word and the first two uploaded
        Run run = run("upload", "--server", "http://localhost:1", "--token", "t", "--benchmark", "t2", a.toString(),
                b.toString(), c.toString());

        assertThat(run.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(run.err()).contains("FILE: at most two files (without, with), got 3").doesNotContain("cannot reach");
    }

    @Test
    void aVariantWithTwoFilesIsRefusedNamingBoth() throws Exception {
        Path a = Files.createTempFile("bench", ".csv");
        Path b = Files.createTempFile("bench", ".csv");

        // both files were uploaded as without and with, and --variant dropped
        Run run = run("upload", "--server", "http://localhost:1", "--token", "t", "--variant", "without",
                a.toString(), b.toString());

        assertThat(run.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(run.err()).contains("--variant", "two FILEs").doesNotContain("cannot reach");
    }

    @Test
    void unreachableServerExits3() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path file = Files.createTempFile("bench", ".txt");
        Run run = run("upload", "--server", "http://localhost:" + port, "--token", "t", file.toString());
        assertThat(run.exit()).isEqualTo(ServerOptions.EXIT_SERVER_ERROR);
        assertThat(run.err()).contains("cannot reach http://localhost:" + port + ": the connection was refused")
                .doesNotContain("null");
        assertThat(run.exit()).isEqualTo(run("token", "revoke", "1", "--server", "http://localhost:" + port,
                "--token", "t").exit());
    }

    @Test
    void userWithoutPasswordOrTerminalIsAUsageErrorAndSendsNothing() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        // an empty password would be sent, refused, and counted as a failed sign-in against the account
        Run run = run("token", "create", "bench", "--server", "http://localhost:" + port, "--user", "admin");
        assertThat(run.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(run.err()).contains("--user admin needs a password", "--password", "PERFLAB_PASSWORD")
                .doesNotContain("cannot reach");
    }

    @Test
    void aPortOutOfRangeIsNamedBeforeAnythingIsSent() throws Exception {
        Path file = Files.createTempFile("bench", ".txt");
        // an internal error ("port out of range:99999", status 70), for upload and token alike
        for (String port : new String[] {"99999", "0", "99999999999"}) {
            Run upload = run("upload", "--server=http://127.0.0.1:" + port, "--token", "t", file.toString());
            assertThat(upload.exit()).as(port).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(upload.err()).contains("Invalid value for option '--server': port " + port
                    + " is out of range (1–65535)").doesNotContain("internal error");
        }
        Run token = run("token", "create", "ci", "--server=http://127.0.0.1:99999", "--token", "t");
        assertThat(token.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(token.err()).contains("port 99999 is out of range (1–65535)");
    }

    @Test
    void credentialsInTheServerUrlAreRefusedWithoutShowingThem() throws Exception {
        Path file = Files.createTempFile("bench", ".txt");

        // they were ignored: the upload went out without any, and the server answered 401
        Run run = run("upload", "--server=http://admin:s3cret@127.0.0.1:1", file.toString());

        assertThat(run.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(run.err()).contains("'--server'", "credentials", "--user", "--password", "--token")
                .doesNotContain("s3cret");
        Run query = run("token", "revoke", "1", "--server=http://127.0.0.1:1/?token=x", "--token", "t");
        assertThat(query.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(query.err()).contains("'--server'", "query").doesNotContain("token=x");
    }

    @Test
    void credentialsThatWouldBeIgnoredAreRefused() throws Exception {
        Path file = Files.createTempFile("bench", ".txt");

        // --user won over --token without a word
        Run both = run("upload", "--server=http://127.0.0.1:1", "--token", "t", "--user", "admin", "--password", "x",
                file.toString());
        assertThat(both.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(both.err()).contains("--user", "--token", "give one").doesNotContain("cannot reach");

        // --password without --user was ignored, and the upload went out without credentials
        Run password = run("upload", "--server=http://127.0.0.1:1", "--password", "x", file.toString());
        assertThat(password.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(password.err()).contains("--password", "without --user").doesNotContain("cannot reach");

        Run none = run("token", "revoke", "1", "--server=http://127.0.0.1:1", "--token", " ");
        assertThat(none.exit()).isEqualTo(PerfLabCommand.EXIT_USAGE);
        assertThat(none.err()).contains("--token", "PERFLAB_TOKEN", "--user").doesNotContain("cannot reach");
    }

    @Test
    void aServerUrlWithAPathIsNamedWhenTheServerDoesNotKnowTheCall() throws Exception {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            // what PerfLab answers to a POST outside /api/**
            byte[] body = "{\"status\":403,\"title\":\"Forbidden\",\"detail\":\"Forbidden\"}".getBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
            exchange.sendResponseHeaders(403, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            Path file = Files.createTempFile("bench", ".txt");
            String base = "http://127.0.0.1:" + server.getAddress().getPort();

            Run run = run("upload", "--server", base + "/perflab", "--token", "t", file.toString());

            assertThat(run.exit()).isEqualTo(ServerOptions.EXIT_SERVER_ERROR);
            assertThat(run.err()).contains("the server answered 403: Forbidden", "--server has the path /perflab",
                    base);
            Run withoutPath = run("upload", "--server", base, "--token", "t", file.toString());
            assertThat(withoutPath.err()).contains("the server answered 403: Forbidden").doesNotContain("path");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aSuccessfulAnswerThatIsNotPerfLabsIsAServerErrorSaidInWords() throws Exception {
        var answer = new java.util.concurrent.atomic.AtomicReference<String>();
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            // another service, or a proxy's page, at --server: a success status with a body of its own
            exchange.getRequestBody().readAllBytes();
            byte[] body = answer.get().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders("POST".equals(exchange.getRequestMethod()) ? 201 : 200,
                    body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            Path file = Files.createTempFile("bench", ".txt");
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            // each was "internal error: Unexpected character ('<' (code 60)) …" or "Cannot invoke
            // "tools.jackson.databind.JsonNode.asLong()" …", status 70
            String[][] cases = {{"<html>\n<body>Sign in</body></html>", "with no JSON but '<html> <body>Sign in"},
                {"{}", "with a JSON object without 'experimentId'"}, {"[1, 2]", "with JSON, but no object"},
                {"", "with an empty body"}};
            for (String[] c : cases) {
                answer.set(c[0]);
                Run upload = run("upload", "--server", base, "--token", "t", file.toString());
                Run token = run("token", "create", "ci", "--server", base, "--token", "t");

                for (Run run : List.of(upload, token)) {
                    assertThat(run.exit()).as(run.err()).isEqualTo(ServerOptions.EXIT_SERVER_ERROR);
                    assertThat(run.err()).contains(base + " answered 20", c[1].replace("experimentId",
                            run == upload ? "experimentId" : "token"), "which is no answer of PerfLab's: is --server "
                            + "the URL of a PerfLab service?").doesNotContain("internal error", "jackson", "Cannot");
                }
            }
        } finally {
            server.stop(0);
        }
    }

    /**
     * The server's text was printed as it came: a proxy, a server that is not PerfLab or a stored name could send an
     * escape sequence (ESC [2J clears the terminal) or a right-to-left override, which the terminal obeyed. A problem's
     * detail is shown on one line, a body that is no problem line by line and cut, each with them escaped.
     */
    @Test
    void theServersTextIsPrintedWithItsControlAndHiddenCharactersEscaped() throws Exception {
        // status, content type, body
        var answer = new java.util.concurrent.atomic.AtomicReference<String[]>();
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = answer.get()[2].getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", answer.get()[1]);
            exchange.sendResponseHeaders(Integer.parseInt(answer.get()[0]), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            Path file = Files.createTempFile("bench", ".txt");
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            String[][] cases = {
                {"400", "application/problem+json", "{\"status\": 400, \"detail\": \"name \\u001b[2J'\\u202eevil' "
                        + "is\\nnone\"}", "the server answered 400: name \\u001B[2J'\\u202Eevil' is\\u000Anone"},
                {"502", "text/plain", "Bad gateway\u001b[31m\r\nproxy \u202eerror\u2028here\n",
                    "the server answered 502: Bad gateway\\u001B[31m\nproxy \\u202Eerror\\u2028here\n"},
                // 1004 characters, of which the first 300
                {"503", "text/html", "<p>" + "x".repeat(996) + "\u001b</p>", "the server answered 503: <p>"
                        + "x".repeat(297) + "… (704 more characters not shown)"}};
            for (String[] c : cases) {
                answer.set(new String[] {c[0], c[1], c[2]});
                for (Run run : List.of(run("upload", "--server", base, "--token", "t", file.toString()),
                        run("token", "create", "ci", "--server", base, "--token", "t"),
                        run("token", "revoke", "3", "--server", base, "--token", "t"))) {
                    assertThat(run.exit()).as(run.err()).isEqualTo(ServerOptions.EXIT_SERVER_ERROR);
                    assertThat(run.err()).as(c[0]).contains(c[3]).doesNotContain("\u001b", "\u202e", "\u2028");
                }
            }
            // a successful answer's names, notes and table
            answer.set(new String[] {"201", "application/json", """
                    {"experimentId": 7, "url": "http://perflab/experiments/7\\u001b[2J", "comparedWith": "base",
                     "baseExperimentId": 6, "baseCommit": "abc\\u202e", "notes": ["a note\\u001b]0;title\\u0007"],
                     "comparison": [{"metric": "cpu\\u202e", "unit": "ns\\u001b", "meanWithout": 1, "meanWith": 2,
                       "percent": 100, "verdict": "regressed"}],
                     "token": "plt_x", "id": 3, "name": "ci\\u001b[2J"}"""});
            Run upload = run("upload", "--server", base, "--token", "t", "--fail-on-regression", file.toString());
            assertThat(upload.out()).contains("http://perflab/experiments/7\\u001B[2J", "(commit abc\\u202E)",
                    "Note: a note\\u001B]0;title\\u0007", "cpu\\u202E", "ns\\u001B");
            assertThat(upload.err()).contains("regressed by more than 0.00 %: cpu\\u202E");
            Run created = run("token", "create", "ci", "--server", base, "--token", "t");
            assertThat(created.out()).contains("plt_x\n", "name 'ci\\u001B[2J'");
            answer.set(new String[] {"200", "application/json", "{\"name\": \"ci\\u202e\"}"});
            assertThat(run("token", "revoke", "3", "--server", base, "--token", "t").out())
                    .contains("revoked token 3 ('ci\\u202E')");
            for (Run run : List.of(upload, created)) {
                assertThat(run.out() + run.err()).doesNotContain("\u001b", "\u202e", "\u2028", "\u0007");
            }
        } finally {
            server.stop(0);
        }
    }

    /**
     * Each went to the server, which answered 400 naming its query parameter, header or field (?format=,
     * git.commitTime, the Idempotency-Key header, role), and the command exited 3 as if the server had failed.
     */
    @Test
    void queryFlagsAreCheckedByTheServersRulesBeforeAnythingIsSent() throws Exception {
        Path file = Files.createTempFile("bench", ".txt");
        String[][] cases = {
            {"--format: 'bogus' is not a format; use one of: json, jmh, gobench, googlebenchmark, hyperfine, rpcbench, "
                    + "csv (or leave --format out to detect it)", "--format=bogus"},
            {"--format: '' is not a format", "--format="},
            {"--commit-time: 'yesterday' is not an ISO-8601 time with offset (e.g. 2025-01-31T12:00:00Z) nor epoch "
                    + "seconds", "--commit-time=yesterday"},
            {"--commit-time: must lie between 1970-01-01T00:00:00Z and ", "--commit-time=1969-07-20T20:17:40Z"},
            {"--commit-time: give an ISO-8601 time", "--commit-time="},
            {"--idempotency-key: must have 1 to 200 characters, got 0", "--idempotency-key="},
            {"--idempotency-key: must have 1 to 200 characters, got 201", "--idempotency-key=" + "k".repeat(201)},
            // the HTTP client refused it: "internal error: invalid header value", exit 70
            {"--idempotency-key: must be printable ASCII (letters, digits, punctuation, spaces), which an HTTP "
                    + "header carries as it is; character 1 is U+043A", "--idempotency-key=ключ"},
            // the key was shown as 'a?b', which did not say which character was refused
            {"character 2 is U+0009", "--idempotency-key=a\tb"},
            {"character 4 is U+00E9", "--idempotency-key=caf\u00e9"},
            {"--idempotency-key: must have a character other than spaces", "--idempotency-key=   "}};
        for (String[] c : cases) {
            Run run = run("upload", "--server", "http://localhost:1", "--token", "t", c[1], file.toString());

            assertThat(run.exit()).as(c[1]).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(run.err()).as(c[1]).contains(c[0]).doesNotContain("cannot reach", "internal error");
        }
        assertThat(run("upload", "--server", "http://localhost:1", "--token", "t", "--format", "GoBench",
                "--commit-time", "1700000000", "--idempotency-key", "sha-1 job 2", file.toString()).err())
                .as("as the server takes them").contains("cannot reach");
    }

    @Test
    void tokenFlagsAreCheckedByTheServersRulesBeforeAnythingIsSent() {
        String[][] cases = {
            {"--role: 'superuser' is not a token role; use 'user' (uploads and writes) or 'agent'", "create", "ci",
                "--role=superuser"},
            {"NAME: a token needs a name of 1 to 100 characters", "create", ""},
            {"NAME: a token needs a name of 1 to 100 characters", "create", "x".repeat(101)},
            {"NAME: must be printable text", "create", "ci\u001b[31m"},
            // sent as DELETE /api/v1/tokens/-5
            {"ID: a token's id is a whole number from 1 (see Settings → API tokens), got -5", "revoke", "-5"}};
        for (String[] c : cases) {
            String[] args = new String[c.length + 4];
            args[0] = "token";
            System.arraycopy(c, 1, args, 1, c.length - 1);
            System.arraycopy(new String[] {"--server", "http://localhost:1", "--token", "t"}, 0, args, c.length, 4);

            Run run = run(args);

            assertThat(run.exit()).as(String.join(" ", args)).isEqualTo(PerfLabCommand.EXIT_USAGE);
            assertThat(run.err()).as(String.join(" ", args)).contains(c[0]).doesNotContain("cannot reach");
        }
    }

    @Test
    void tableListsRegressionsBeyondTheThresholdOnly() {
        String response = """
                {"experimentId": 7, "url": "http://perflab/experiments/7", "comparedWith": "variants",
                 "comparison": [
                   {"metric": "a", "unit": "ns", "meanWithout": 100, "meanWith": 103, "percent": 3.0,
                    "ciLowPercent": 1.0, "ciHighPercent": 5.0, "holmPValue": 0.001, "verdict": "regressed"},
                   {"metric": "b", "unit": "ns", "meanWithout": 100, "meanWith": 101.5, "percent": 1.5,
                    "ciLowPercent": 0.5, "ciHighPercent": 2.5, "holmPValue": 0.01, "verdict": "regressed"},
                   {"metric": "c", "unit": "ns", "meanWithout": 100, "meanWith": 90, "percent": -10.0,
                    "ciLowPercent": -12.0, "ciHighPercent": -8.0, "holmPValue": 0.0001, "verdict": "improved"}]}""";
        StringWriter out = new StringWriter();

        var regressions = UploadResultTable.print(JsonMapper.builder().build().readTree(response), 2.0,
                new PrintWriter(out));

        // a: +3 % > 2 %; b: +1.5 % ≤ 2 %; c improved
        assertThat(regressions).containsExactly("a");
        assertThat(out.toString()).contains("Uploaded experiment 7: http://perflab/experiments/7")
                .contains("+3.00").contains("[+1.00, +5.00]").contains("improved")
                .contains("Regressed, but by no more than the threshold of 2.00 % (the estimate Δ % is what is held "
                        + "to it, not its interval): b\n");
    }

    @Test
    void tablePrintsPValuesAndUnboundedIntervalsAsThePageDoes() {
        String response = """
                {"experimentId": 8, "url": "http://perflab/experiments/8", "comparedWith": "variants",
                 "comparison": [
                   {"metric": "a", "unit": "ns", "meanWithout": 100, "meanWith": 90, "percent": -10.0,
                    "ciLowPercent": -12.0, "ciHighPercent": -8.0, "holmPValue": 0.0, "verdict": "improved"},
                   {"metric": "b", "unit": "ns", "meanWithout": 0.5, "meanWith": 3, "percent": 500.0,
                    "ciLowPercent": 20.0, "ciHighPercent": null, "holmPValue": 3.2e-20, "verdict": "regressed"},
                   {"metric": "c", "unit": "ns", "meanWithout": 100, "meanWith": 100.5, "percent": 0.5,
                    "ciLowPercent": -0.2, "ciHighPercent": 1.2, "holmPValue": 0.05, "verdict": "inconclusive"}]}""";
        StringWriter out = new StringWriter();

        UploadResultTable.print(JsonMapper.builder().build().readTree(response), 2.0, new PrintWriter(out));

        // R's format.pval, as the page, the reports and 'compare' print them; never 0 or 3.200e-20
        List<String> lines = out.toString().lines().toList();
        assertThat(lines.get(3)).contains(" < 2.2e-16 ").doesNotContain("0.000");
        assertThat(lines.get(4)).contains(" < 2.2e-16 ").contains("[+20.00, +inf]").doesNotContain("e-20");
        assertThat(lines.get(5)).contains(" 0.05 ").doesNotContain("0.05000");
    }

    @Test
    void twoFilesAreOneMultipartBodyWithEscapedFileNames() {
        MultipartForm form = MultipartForm.of(List.of(
                new MultipartForm.Part("without", "a \"b\";\r\nc.txt", "1 2 3".getBytes()),
                new MultipartForm.Part("with", "d.txt", "4 5".getBytes())));

        String body = new String(form.body(), java.nio.charset.StandardCharsets.UTF_8);
        String boundary = form.boundary();
        assertThat(form.contentType()).isEqualTo("multipart/form-data; boundary=" + boundary);
        assertThat(body).isEqualTo("--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"without\"; filename=\"a %22b%22;%0D%0Ac.txt\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n1 2 3\r\n"
                + "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"with\"; filename=\"d.txt\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n4 5\r\n"
                + "--" + boundary + "--\r\n");
        assertThat(MultipartForm.of(List.of()).boundary()).as("random").isNotEqualTo(boundary);
    }

    /**
     * perflab.jar holds no reactive streams: Spring's MultipartBodyBuilder needs them (a two-file upload failed with
     * NoClassDefFoundError: org/reactivestreams/Publisher), and a test classpath that had them would not show it.
     */
    @Test
    void theCommandLineUsesNoReactiveTypes() {
        ArchRuleDefinition.noClasses().that().resideInAPackage("io.perflab.cli")
                .should().dependOnClassesThat().resideInAnyPackage("org.reactivestreams..", "reactor..",
                        "org.springframework.http.codec..", "org.springframework.core.io.buffer..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(
                        "org.springframework.http.client.MultipartBodyBuilder")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.perflab.cli"));
    }
}
