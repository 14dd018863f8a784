package io.perflab.cli;

import io.perflab.runner.experiment.VariantName;
import io.perflab.upload.GitInfo;
import io.perflab.upload.IdempotencyKey;
import io.perflab.upload.UploadFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.util.UriBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code perflab upload}: sends benchmark output to a server's {@code POST /api/v1/uploads}, prints the
 * comparison table, and with {@code --fail-on-regression} exits 1 when a metric regressed by more than the
 * threshold. One file is one side (or both, for hyperfine/CSV/JSON that hold both); two files are
 * {@code without} and {@code with}.
 */
@Command(name = "upload", mixinStandardHelpOptions = true,
        description = "Upload benchmark output (json, jmh, gobench, googlebenchmark, hyperfine, rpcbench, csv) to a "
                + "PerfLab server and print the comparison. Two FILEs: the first is 'without', the second 'with'.",
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:uploaded (no regression beyond the threshold)",
                "1:--fail-on-regression and a metric regressed by more than --threshold",
                "2:bad command line", "3:the server refused the upload or could not be reached",
                PerfLabCommand.EXIT_INTERNAL_ERROR + ":an internal error"})
final class UploadCommand implements Callable<Integer> {

    static final int EXIT_REGRESSION = 1;

    @Mixin
    ServerOptions server;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "format of the files: json, jmh, gobench, googlebenchmark, hyperfine, rpcbench or csv; "
                    + "detected when absent")
    String format;

    @Option(names = "--benchmark", paramLabel = "NAME", description = "benchmark name (history is kept per name)")
    String benchmark;

    @Option(names = "--name", paramLabel = "TITLE", description = "experiment title")
    String name;

    @Option(names = "--variant", paramLabel = "SIDE",
            description = "side of a one-sided file: with (default), without, or a label")
    String variant;

    @Option(names = "--git-repository", paramLabel = "URL")
    String repository;

    @Option(names = "--git-branch", paramLabel = "BRANCH")
    String branch;

    @Option(names = "--git-commit", paramLabel = "SHA")
    String commit;

    @Option(names = "--git-base-commit", paramLabel = "SHA", description = "commit to compare with")
    String baseCommit;

    @Option(names = "--git-default-branch", paramLabel = "BRANCH",
            description = "branch to compare with when there is no base commit (default: main, then master)")
    String defaultBranch;

    @Option(names = "--pull-request", paramLabel = "ID")
    String pullRequest;

    @Option(names = "--commit-time", paramLabel = "TIME", description = "ISO-8601 with offset, or epoch seconds")
    String commitTime;

    @Option(names = "--idempotency-key", paramLabel = "KEY",
            description = "repeat-safe key; a retry with the same key stores nothing new (default: random)")
    String idempotencyKey;

    @Option(names = "--fail-on-regression", description = "exit 1 when a metric's verdict is 'regressed' by more "
            + "than --threshold")
    boolean failOnRegression;

    @Option(names = "--threshold", paramLabel = "PERCENT", defaultValue = "0%",
            description = "smallest regression (|Δ %%|) that fails the job, e.g. 2%% (default: ${DEFAULT-VALUE})")
    String threshold;

    /** Taken as one or more, then counted: picocli repeats an arity of "1..2" on a list, taking 3 files as 2 + 1. */
    @Parameters(paramLabel = "FILE", arity = "1..*", description = "benchmark output; two files: without, with")
    List<Path> files = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        double thresholdPercent = parseThreshold(threshold);
        if (files.size() > 2) {
            throw new CommandLine.ParameterException(spec.commandLine(), "FILE: at most two files (without, with), "
                    + "got " + files.size());
        }
        checkQuery();
        if (files.size() == 2 && variant != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--variant " + variant + " and two FILEs do "
                    + "not go together: two files are the sides without and with; --variant names the side of one "
                    + "file");
        }
        List<byte[]> contents = new ArrayList<>();
        for (Path file : files) {
            try {
                // bounded, and never a device: /dev/zero was read until the heap ran out
                contents.add(InputFiles.bytes(file));
            } catch (InputFiles.BadInputException e) {
                // a usage error (2), never the regression status (1)
                throw new CommandLine.ParameterException(spec.commandLine(), "FILE: cannot read " + file + ": "
                        + e.getMessage());
            }
        }
        String key = idempotencyKey != null ? idempotencyKey : UUID.randomUUID().toString();
        ServerOptions.Answer response;
        try {
            response = server.send(client -> {
                RestClient.RequestBodySpec request = client.post().uri(this::uploadUri).header("Idempotency-Key", key);
                if (contents.size() == 1) {
                    return request.contentType(looksLikeJson(contents.get(0)) ? MediaType.APPLICATION_JSON
                            : MediaType.TEXT_PLAIN).body(contents.get(0));
                }
                MultipartForm form = multipart(contents);
                return request.contentType(MediaType.parseMediaType(form.contentType())).body(form.body());
            });
        } catch (IOException e) {
            err.println("perflab upload: cannot reach " + server.server + ": " + e.getMessage());
            return ServerOptions.EXIT_SERVER_ERROR;
        }
        if (response.status() != 201) {
            err.println("perflab upload: the server answered " + response.status() + ": " + inFlags(response.detail())
                    + ServerOptions.pathHint(server.server, response.status()));
            return ServerOptions.EXIT_SERVER_ERROR;
        }
        JsonNode result;
        try {
            result = response.expected("experimentId", "url");
        } catch (ServerOptions.NotPerfLabsAnswer e) {
            err.println("perflab upload: " + response.notPerfLabs(server.server, e));
            return ServerOptions.EXIT_SERVER_ERROR;
        }
        List<String> regressions = UploadResultTable.print(result, thresholdPercent, out);
        out.flush();
        if (failOnRegression && !regressions.isEmpty()) {
            err.println("perflab upload: regressed by more than " + format(thresholdPercent) + " %: "
                    + String.join(", ", regressions));
            return EXIT_REGRESSION;
        }
        return 0;
    }

    /**
     * Refuses what the server would refuse of {@code --format}, {@code --commit-time} and
     * {@code --idempotency-key}, by the server's own rules: its answer would name the query parameter or header
     * ({@code Unknown format}, {@code git.commitTime}, {@code The Idempotency-Key header}) and exit 3, as if the
     * server had failed. An empty value is refused too: the server took it as no value.
     */
    private void checkQuery() {
        if (format != null && (format.isBlank() || UploadFormat.byLabel(format).isEmpty())) {
            throw usage("--format: '" + format + "' is not a format; use one of: " + UploadFormat.labels()
                    + " (or leave --format out to detect it)");
        }
        if (commitTime != null) {
            if (commitTime.isBlank()) {
                throw usage("--commit-time: give an ISO-8601 time with offset (e.g. 2025-01-31T12:00:00Z) or epoch "
                        + "seconds, or leave --commit-time out");
            }
            try {
                GitInfo.parseCommitTime(commitTime);
            } catch (IllegalArgumentException e) {
                throw usage("--commit-time: " + e.getMessage());
            }
        }
        if (idempotencyKey != null) {
            String problem = IdempotencyKey.problem(idempotencyKey);
            // the HTTP client refused a key that is not printable ASCII as a header's value, an internal error
            if (problem != null) {
                throw usage("--idempotency-key: " + problem);
            }
        }
    }

    /**
     * The server's {@code detail} with the flags in place of what they set: {@code ?format=} (as in "pass ?format=
     * with one of …"), the Idempotency-Key header, and a field that a message begins with ({@code 'git.branch' is
     * longer than 200 characters}) when its flag was given, for the value may come from the file otherwise.
     */
    private String inFlags(String detail) {
        String said = detail.replace("?format=", "--format").replace("The Idempotency-Key '",
                "The --idempotency-key '");
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("benchmark", benchmark == null ? null : "--benchmark");
        flags.put("name", name == null ? null : "--name");
        flags.put("git.repository", repository == null ? null : "--git-repository");
        flags.put("git.branch", branch == null ? null : "--git-branch");
        flags.put("git.commit", commit == null ? null : "--git-commit");
        flags.put("git.baseCommit", baseCommit == null ? null : "--git-base-commit");
        flags.put("git.defaultBranch", defaultBranch == null ? null : "--git-default-branch");
        flags.put("git.pullRequest", pullRequest == null ? null : "--pull-request");
        // the side a one-sided file is uploaded as: with, unless --variant names another label
        flags.put("with.label", variant == null ? null : "--variant");
        flags.put("without.label", variant == null ? null : "--variant");
        for (Map.Entry<String, String> field : flags.entrySet()) {
            if (field.getValue() != null && said.startsWith("'" + field.getKey() + "' ")) {
                return field.getValue() + said.substring(field.getKey().length() + 2);
            }
        }
        return said;
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    private double parseThreshold(String text) {
        String t = text.strip();
        if (t.endsWith("%")) {
            t = t.substring(0, t.length() - 1).strip();
        }
        try {
            // the grammar of every number of the command line: Java's 0x1p3 and 2d are none
            double value = DecimalArguments.parse(t);
            if (!(value >= 0)) {
                throw new NumberFormatException();
            }
            return value;
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--threshold: '" + text
                    + "' is not a percentage ≥ 0, e.g. 2%");
        }
    }

    private URI uploadUri(UriBuilder uri) {
        uri.path("/api/v1/uploads");
        Map<String, String> params = new LinkedHashMap<>();
        params.put("format", format);
        params.put("benchmark", benchmark);
        params.put("name", name);
        params.put("variant", variant);
        params.put("repository", repository);
        params.put("branch", branch);
        params.put("commit", commit);
        params.put("baseCommit", baseCommit);
        params.put("defaultBranch", defaultBranch);
        params.put("pullRequest", pullRequest);
        params.put("commitTime", commitTime);
        params.values().removeIf(java.util.Objects::isNull);
        // values travel as URI variables, which are encoded whole (& = + % included)
        params.keySet().forEach(key -> uri.queryParam(key, "{" + key + "}"));
        return uri.build(params);
    }

    private static boolean looksLikeJson(byte[] content) {
        String start = new String(content, 0, Math.min(content.length, 64), StandardCharsets.UTF_8).stripLeading();
        return start.startsWith("{") || start.startsWith("[");
    }

    /** The two files as the parts {@code without} and {@code with}, each with its file's name. */
    private MultipartForm multipart(List<byte[]> contents) {
        List<MultipartForm.Part> parts = new ArrayList<>();
        for (VariantName side : VariantName.values()) {
            Path fileName = files.get(side.ordinal()).getFileName();
            parts.add(new MultipartForm.Part(side.label(), fileName == null ? side.label() : fileName.toString(),
                    contents.get(side.ordinal())));
        }
        return MultipartForm.of(parts);
    }

    static String format(double value) {
        return String.format(Locale.ROOT, "%.3g", value);
    }
}
