package io.perflab.report;

import io.perflab.system.AcceptedTypes;
import io.perflab.system.ApiProblem;
import io.perflab.system.InvalidInputException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * {@code /api/v1/experiments/{id}/report}: the experiment exported as one self-contained HTML file, a Markdown
 * table for a pull request, or R {@code t.test} print-outs as plain text. Each is a download.
 */
@RestController
@RequestMapping("/api/v1/experiments/{id}")
class ReportController {

    static final MediaType MARKDOWN = new MediaType("text", "markdown", StandardCharsets.UTF_8);
    static final MediaType HTML = new MediaType("text", "html", StandardCharsets.UTF_8);
    static final MediaType TEXT = new MediaType("text", "plain", StandardCharsets.UTF_8);

    private final ExperimentReports reports;

    ReportController(ExperimentReports reports) {
        this.reports = reports;
    }

    @Operation(summary = "An experiment's self-contained HTML report, as a download")
    @ApiResponse(responseCode = "200", description = "the report", content = @Content(mediaType = "text/html",
            schema = @Schema(type = "string")))
    @GetMapping("/report.html")
    ResponseEntity<String> html(@PathVariable long id) {
        return download(id, "html", HTML, reports.html(id, serverUrl()));
    }

    @Operation(summary = "An experiment's Markdown report, as a download")
    @ApiResponse(responseCode = "200", description = "the report", content = @Content(mediaType = "text/markdown",
            schema = @Schema(type = "string")))
    @GetMapping("/report.md")
    ResponseEntity<String> markdown(@PathVariable long id) {
        return download(id, "md", MARKDOWN, reports.markdown(id, serverUrl()));
    }

    @Operation(summary = "An experiment's report as R-style text, as a download")
    @ApiResponse(responseCode = "200", description = "the report", content = @Content(mediaType = "text/plain",
            schema = @Schema(type = "string")))
    @GetMapping("/report.txt")
    ResponseEntity<String> text(@PathVariable long id) {
        return download(id, "txt", TEXT, reports.text(id, serverUrl()));
    }

    /**
     * The format the {@code Accept} header prefers among HTML, Markdown and plain text: each format has the quality
     * of the most specific range that matches it (RFC 9110, 12.5.1), so {@code text/html;q=0, *}{@code /*} refuses
     * HTML; the highest quality above 0 wins, and HTML, then Markdown, then text when several share it.
     */
    @Operation(summary = "An experiment's report in the format the Accept header asks for (HTML, Markdown or text)")
    @ApiResponse(responseCode = "200", description = "the report", content = {
        @Content(mediaType = "text/html", schema = @Schema(type = "string")),
        @Content(mediaType = "text/markdown", schema = @Schema(type = "string")),
        @Content(mediaType = "text/plain", schema = @Schema(type = "string"))})
    @ApiResponse(responseCode = "406", description = "Accept takes none of HTML, Markdown and plain text")
    @GetMapping("/report")
    ResponseEntity<String> negotiated(@PathVariable long id,
            @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        List<MediaType> accepted = accept == null || accept.isBlank() ? List.of(MediaType.ALL) : parse(accept);
        double html = AcceptedTypes.quality(accepted, MediaType.TEXT_HTML);
        double markdown = AcceptedTypes.quality(accepted, MARKDOWN);
        double text = AcceptedTypes.quality(accepted, MediaType.TEXT_PLAIN);
        double best = Math.max(html, Math.max(markdown, text));
        if (best <= 0) {
            throw new ApiProblem(HttpStatus.NOT_ACCEPTABLE, "the report is available as text/html, text/markdown or "
                    + "text/plain; Accept was '" + accept + "' (or use report.html, report.md, report.txt)");
        }
        return html == best ? html(id) : markdown == best ? markdown(id) : text(id);
    }

    private static List<MediaType> parse(String accept) {
        try {
            return MediaType.parseMediaTypes(accept);
        } catch (org.springframework.http.InvalidMediaTypeException e) {
            throw InvalidInputException.of(HttpHeaders.ACCEPT, "not a media type list: " + e.getMessage());
        }
    }

    /** This server's address as the client reached it: where a report's links to the full data lead. */
    private static String serverUrl() {
        return ServletUriComponentsBuilder.fromCurrentContextPath().toUriString();
    }

    private static ResponseEntity<String> download(long id, String extension, MediaType type, String body) {
        return ResponseEntity.ok()
                .contentType(type)
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment()
                        .filename("perflab-experiment-" + id + "." + extension).build().toString())
                .body(body);
    }
}
