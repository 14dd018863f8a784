package io.perflab.upload;

import io.perflab.security.StoredToken;
import io.perflab.system.InvalidInputException;
import io.perflab.system.Texts;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springdoc.core.annotations.ParameterObject;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * {@code POST /api/v1/uploads}: benchmark output from CI as the body (one side, or both in one file), as one
 * multipart file {@code file} taken as that body, or as two multipart files {@code without} and {@code with}. Needs a
 * bearer token (see {@code SecurityConfig}).
 */
@RestController
// an Accept that takes no JSON is refused (406) before the handler runs, so before any write
@RequestMapping(path = "/api/v1/uploads", produces = MediaType.APPLICATION_JSON_VALUE)
class UploadApiController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final String REPLAYED = "Idempotent-Replayed";

    /** The parts of a two-file upload. */
    private static final List<String> TWO_FILES = List.of(ParsedUpload.WITHOUT, ParsedUpload.WITH);

    /** The part of a one-file multipart upload ({@code curl -F file=@FILE}), read as a body would be. */
    static final String ONE_FILE = "file";

    /** The bodies the upload takes, as the API documentation and the refusals of a multipart body say them. */
    static final String BODIES = "The upload is one of: the output as the request body (curl --data-binary @FILE; "
            + "one side, named by ?variant=, 'with' by default, or both sides in one PerfLab JSON file); a "
            + "multipart body with the one file 'file' (curl -F file=@FILE), read as that body; or a multipart body "
            + "with the two files 'without' and 'with' (curl -F without=@OLD -F with=@NEW). The parameters "
            + "(benchmark, branch, commit…) go in the query string or, in a multipart body, as form fields.";

    /**
     * The summary and description of both handlers, which the API documentation shows as one operation (with the
     * summary of either).
     */
    static final String SUMMARY = "Upload benchmark output: the request body, one multipart file 'file', or two "
            + "files 'without' and 'with'";

    static final String DESCRIPTION = BODIES + " The output is PerfLab JSON, or another tool's output, its format "
            + "detected or given with ?format=.";

    private final UploadService uploads;

    UploadApiController(UploadService uploads) {
        this.uploads = uploads;
    }

    /**
     * The parts are read here rather than bound by name, so that a part given twice, a part of another name and
     * a form field where a file belongs are refused saying so: bound by name, the second 'with' was dropped, the
     * others ignored, and a field 'with' was "Required part 'with' is not present".
     */
    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @Operation(summary = SUMMARY, description = DESCRIPTION)
    @ApiResponse(responseCode = "201", description = "stored; the comparison of the two sides, or of the one side "
            + "with its base",
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @Schema(implementation = UploadResponse.class)))
    @ApiResponse(responseCode = "409", description = "the Idempotency-Key was used for another upload")
    ResponseEntity<String> uploadFiles(HttpServletRequest request, @ParameterObject UploadParameters parameters,
            @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String idempotencyKey,
            Authentication authentication) throws IOException, ServletException {
        Map<String, Part> files = files(request.getParts());
        List<String> names = files.containsKey(ONE_FILE) ? List.of(ONE_FILE) : TWO_FILES;
        List<String> contents = new ArrayList<>();
        for (String name : names) {
            contents.add(text(files.get(name), name));
        }
        return respond(contents, names, parameters, idempotencyKey, authentication);
    }

    @PostMapping
    @Operation(summary = SUMMARY, description = DESCRIPTION)
    @ApiResponse(responseCode = "201", description = "stored; the comparison with the base or the other side",
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @Schema(implementation = UploadResponse.class)))
    @ApiResponse(responseCode = "409", description = "the Idempotency-Key was used for another upload")
    ResponseEntity<String> upload(@io.swagger.v3.oas.annotations.parameters.RequestBody(content = {
            @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @Schema(implementation = NativeUploadSchema.class),
                    examples = @ExampleObject(value = """
                            {"benchmark": "parser", "variant": "with",
                             "metrics": {"ns_per_op": {"unit": "ns", "direction": "lower",
                                                       "values": [12.1, 12.3, 12.2]}},
                             "git": {"branch": "feature", "commit": "abc123", "baseCommit": "def456"}}""")),
            @Content(mediaType = MediaType.TEXT_PLAIN_VALUE, schema = @Schema(type = "string",
                    description = "go test -bench, rpc-bench or CSV output; JMH, Google Benchmark and hyperfine "
                            + "JSON as those tools write it")),
            // the multipart upload's bodies, which the documentation shows with this one as one operation
            @Content(mediaType = MediaType.MULTIPART_FORM_DATA_VALUE,
                    schema = @Schema(oneOf = {OneFile.class, TwoFiles.class}))})
            @RequestBody(required = false) byte[] body, @ParameterObject UploadParameters parameters,
            @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String idempotencyKey,
            Authentication authentication) {
        return respond(List.of(body == null ? "" : text(body, null)), List.of(), parameters, idempotencyKey,
                authentication);
    }

    /**
     * Refuses a header or parameter that cannot be used, naming it as its error's field, then uploads
     * {@code contents}.
     *
     * @param parts the multipart body's files that {@code contents} are, named as {@link UploadRequest#parts}
     */
    private ResponseEntity<String> respond(List<String> contents, List<String> parts, UploadParameters p,
            String idempotencyKey, Authentication authentication) {
        if (idempotencyKey != null && IdempotencyKey.problem(idempotencyKey) != null) {
            // a header's bytes arrive one character each: UTF-8's é is read as 'Ã' and a byte after it
            boolean bytes = idempotencyKey.chars().anyMatch(c -> c >= 0x80 && c <= 0xFF);
            throw InvalidInputException.ofSentence(IDEMPOTENCY_KEY, "The Idempotency-Key header "
                    + IdempotencyKey.problem(idempotencyKey) + (bytes ? " (a header is read byte by byte: that is a "
                    + "byte of text that is not ASCII, such as UTF-8)" : "") + ".");
        }
        UploadFormat format = null;
        if (p.format() != null && !p.format().isBlank()) {
            format = UploadFormat.byLabel(p.format()).orElseThrow(() -> InvalidInputException.ofSentence("format",
                    "Unknown format '" + p.format() + "'; use one of: " + UploadFormat.labels() + " (or leave it out "
                    + "to detect it)."));
        }
        GitInfo git = new GitInfo(p.repository(), p.branch(), p.commit(), p.baseCommit(), p.pullRequest(),
                commitTime(p.commitTime()), p.defaultBranch());
        String baseUrl = ServletUriComponentsBuilder.fromCurrentContextPath().toUriString();
        UploadService.Outcome outcome = uploads.upload(new UploadRequest(contents, parts, format, p.benchmark(),
                p.name(), p.variant(), git, idempotencyKey, authentication.getName(), StoredToken.idOf(authentication),
                baseUrl));
        ResponseEntity.BodyBuilder response = ResponseEntity.status(HttpStatus.CREATED)
                .location(URI.create(baseUrl + "/api/v1/experiments/" + outcome.experimentId()))
                .contentType(MediaType.APPLICATION_JSON);
        if (outcome.replayed()) {
            response.header(REPLAYED, "true");
        }
        return response.body(outcome.json());
    }

    /**
     * The part 'file' alone, or the parts 'without' and 'with', each a file given once; other parts may only be form
     * fields of the upload's parameters, which Spring binds as it binds the query string's (a parameter given in
     * both is given twice).
     */
    private static Map<String, Part> files(Collection<Part> parts) {
        Map<String, Part> files = new LinkedHashMap<>();
        for (Part part : parts) {
            String name = part.getName() == null ? "" : part.getName();
            boolean parameter = Arrays.stream(UploadParameters.class.getRecordComponents())
                    .anyMatch(component -> component.getName().equals(name));
            if (parameter && part.getSubmittedFileName() == null) {
                continue; // a parameter as a form field (curl -F benchmark=…), bound with the query string's
            }
            if (!TWO_FILES.contains(name) && !ONE_FILE.equals(name)) {
                String shown = Texts.cut(name, 60);
                throw InvalidInputException.ofSentence(name.isEmpty() ? null : UploadFields.shown(shown), "The part '"
                        + shown + "' is not one of an upload's; its parts are the one file 'file' or the two files "
                        + "'without' and 'with', and form fields of the upload's parameters (benchmark, branch, "
                        + "commit…).");
            }
            if (files.containsKey(name)) {
                throw InvalidInputException.ofSentence(name, "The part '" + name + "' is given twice; an upload has "
                        + "one file 'file', or one file 'without' and one 'with'.");
            }
            if (part.getSubmittedFileName() == null) {
                throw InvalidInputException.ofSentence(name, "The part '" + name + "' must be a file (curl -F '"
                        + name + "=@FILE'), not a form field.");
            }
            files.put(name, part);
        }
        if (files.containsKey(ONE_FILE)) {
            if (files.size() > 1) {
                throw InvalidInputException.ofSentence(ONE_FILE, "The file 'file' comes with the file 'without' or "
                        + "'with'; send either the one file 'file' or the two files 'without' and 'with'.");
            }
            return files;
        }
        for (String name : TWO_FILES) {
            if (!files.containsKey(name)) {
                throw InvalidInputException.ofSentence(name, "The file '" + name + "' is missing; a two-file upload "
                        + "has one file 'without' and one 'with'. To upload one side, send it as the one file 'file' "
                        + "(curl -F file=@FILE, ?variant= naming its side) or as the request body.");
            }
        }
        return files;
    }

    private static java.time.Instant commitTime(String text) {
        try {
            return NativeJsonAdapter.commitTime(text);
        } catch (InvalidUploadException e) {
            throw InvalidInputException.ofSentence("commitTime", e.getMessage());
        }
    }

    /** The text of {@code file}, the multipart body's part {@code name}. */
    private static String text(Part file, String name) throws IOException {
        try (InputStream content = file.getInputStream()) {
            return text(content.readAllBytes(), name);
        }
    }

    /**
     * Uploads are UTF-8; anything else is refused rather than decoded with replacement characters.
     *
     * @param part the multipart body's file {@code bytes} are, which a refusal names; null for the request body
     */
    private static String text(byte[] bytes, String part) {
        try {
            return UploadText.decode(bytes, part == null ? "The request body" : "The file '" + part + "'");
        } catch (InvalidUploadException e) {
            throw InvalidInputException.ofSentence(part, e.getMessage());
        }
    }

    /** A one-file multipart body as the API documentation shows it. */
    @Schema(name = "OneFile", description = "one file of benchmark output, read as a request body of it would be: "
            + "one side (?variant=, 'with' by default), or both sides in one PerfLab JSON file")
    record OneFile(@Schema(type = "string", format = "binary", requiredMode = Schema.RequiredMode.REQUIRED)
                   String file) {
    }

    /** A two-file multipart body as the API documentation shows it. */
    @Schema(name = "TwoFiles", description = "two files of benchmark output, one of each side")
    record TwoFiles(@Schema(type = "string", format = "binary", requiredMode = Schema.RequiredMode.REQUIRED)
                    String without,
                    @Schema(type = "string", format = "binary", requiredMode = Schema.RequiredMode.REQUIRED)
                    String with) {
    }

    /**
     * Query parameters of an upload; git parameters take precedence over the content's git fields.
     *
     * @param format one of {@link UploadFormat}'s labels, or absent to detect it
     * @param variant the side of a one-sided output: {@code with} (default), {@code without}, or a label
     */
    record UploadParameters(String format, String benchmark, String name, String variant, String repository,
                            String branch, String commit, String baseCommit, String pullRequest, String commitTime,
                            String defaultBranch) {
    }
}
