package io.perflab.experiment;

import io.perflab.system.ApiPage;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.system.ApiValues;
import io.perflab.system.InvalidInputException;
import io.perflab.system.PrintableText;
import io.perflab.system.NotFoundException;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /api/v1/experiments}: queue, follow, control and read engine and command A/B experiments.
 *
 * <p>Over 300 lines: one resource's operations, with their OpenAPI descriptions and the samples' two streamed formats.
 */
@RestController
// an Accept that takes no JSON is refused (406) before the handler runs, so before any write
@RequestMapping(path = ExperimentApiController.PATH, produces = MediaType.APPLICATION_JSON_VALUE)
class ExperimentApiController {

    /** Where the experiments are, and each one at {@code /{id}}. */
    static final String PATH = "/api/v1/experiments";

    private final ExperimentService experiments;
    private final ExperimentEvents events;
    private final JsonMapper json;

    private final ObjectProvider<BaseComparison.Source> bases;

    ExperimentApiController(ExperimentService experiments, ExperimentEvents events, JsonMapper json,
                            ObjectProvider<BaseComparison.Source> bases) {
        this.experiments = experiments;
        this.events = events;
        this.json = json;
        this.bases = bases;
    }

    /** Who else is refused a cancel, a resume or a re-run (403). */
    private static final String STARTED_BY_SOMEONE_ELSE = "someone else started it (a user API token: anyone but "
            + "that token): only they or an administrator may";

    /** Why a resume or a re-run is refused what it would run (400): the JVM flags, as creating it is. */
    private static final String RUN_AGAIN_FLAGS = "its JVM flags, as creating it would refuse them (a flag off the "
            + "allow-list, or more memory than a trial JVM may take), errors naming withoutJvmArgs or withJvmArgs; "
            + "or a parameter the operation does not take, or an id that is no number";

    /** Why else a resume or a re-run is refused (403, after {@link #STARTED_BY_SOMEONE_ELSE}), as creating it is. */
    private static final String RUN_AGAIN_COMMAND = "; or it is a command experiment: command experiments are "
            + "disabled on this server, or need an administrator";

    /** What a client that opened too many event streams is told (429). */
    private static final String TOO_MANY_STREAMS = "too many event streams are open, of this client or on the "
            + "server";

    /** The answer to a queued experiment: its id, its status and where to follow it. */
    record Queued(long id, @ApiValues(value = ExperimentStatus.class, only = "QUEUED") String status, String url,
                  String page) {
    }

    /** The answer to a control request: the experiment and what was asked ({@code cancel}) or what it is now. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Control(long id, @Schema(allowableValues = Control.CANCEL) String action,
                   @ApiValues(value = ExperimentStatus.class, only = {"QUEUED", "COMPLETED", "FAILED"}) String status) {

        /** The action of a cancel, which says no status: a running experiment ends once its trial is stopped. */
        static final String CANCEL = "cancel";
    }

    /**
     * One sample of {@code /samples}, as its JSON shows it: {@code status} is its run's ({@code OK}, or why the
     * analysis leaves the run out); {@code cpuSplit} only for user and system CPU of runs that recorded how they were
     * split; {@code pair} and {@code window} in a paired design only.
     */
    record SampleRow(long experiment, @ApiValues(value = VariantName.class, written = "label") String variant,
                     int ordinal, @ApiValues(TrialStatus.class) String status, String metric, double value,
                     String unit, @JsonInclude(JsonInclude.Include.NON_NULL) String cpuSplit,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Integer pair,
                     @JsonInclude(JsonInclude.Include.NON_NULL) Integer window) {
    }

    @Operation(summary = "Queue an engine or command experiment; 202 with its Location")
    @ApiResponse(responseCode = "202", description = "queued; Location is where to follow it")
    @PostMapping
    ResponseEntity<Queued> create(@io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
            examples = {
                @ExampleObject(name = "preset", value = """
                        {"name": "sync completion", "preset": "sync-completion", "runsPerVariant": 40,
                         "workload": {"warmupSeconds": "auto", "runSeconds": 5}}"""),
                @ExampleObject(name = "options", value = """
                        {"name": "pooled vs unpooled", "without": {"allocator": "unpooled"},
                         "with": {"allocator": "pooled"}, "runsPerVariant": 20, "order": "randomized",
                         "workload": {"mode": "async", "clientThreads": 4}}"""),
                @ExampleObject(name = "duet", value = """
                        {"name": "sync completion, duet", "preset": "sync-completion", "design": "duet",
                         "pairs": 20, "windowsPerPair": 3, "target": ["cpu_us_per_req:1.5%"], "budget": "6m",
                         "workload": {"warmupSeconds": "auto:30", "runSeconds": 3}}"""),
                @ExampleObject(name = "alternating", value = """
                        {"name": "sync completion, alternating", "preset": "sync-completion",
                         "design": "alternating", "pairs": 10, "windowsPerPair": 4,
                         "target": "user_cpu_us_per_req:settled"}""")}))
            @Valid @RequestBody(required = false) ExperimentRequest request,
            Authentication authentication) {
        return queued(experiments.create(request, ExperimentCaller.of(authentication)));
    }

    /** 202 with experiment {@code id}, new and queued, and its Location: a creation's answer and a re-run's. */
    private static ResponseEntity<Queued> queued(long id) {
        URI location = ServletUriComponentsBuilder.fromCurrentContextPath().path(PATH + "/{id}")
                .buildAndExpand(id).toUri();
        return ResponseEntity.accepted().location(location).body(new Queued(id, ExperimentStatus.QUEUED.name(),
                location.toString(), ServletUriComponentsBuilder.fromCurrentContextPath().path("/experiments/{id}")
                        .buildAndExpand(id).toUriString()));
    }

    @Operation(summary = "List experiments, filtered and a page at a time")
    @GetMapping
    ApiPage<ExperimentView> list(@RequestParam(required = false) String status,
            @RequestParam(required = false) String name, @RequestParam(required = false) String kind,
            @RequestParam(required = false) String benchmark, @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "20") int size) {
        ApiPage.check(page, size);
        ExperimentStatus statusFilter = parse("status", status, ExperimentStatus.class);
        ExperimentKind kindFilter = parse("kind", kind, ExperimentKind.class);
        ExperimentFilter filter = new ExperimentFilter(statusFilter, name, kindFilter, benchmark, false);
        List<ExperimentView> items = experiments.summaries(experiments.list(filter, page, size));
        return new ApiPage<>(items, page, size, experiments.count(filter));
    }

    /** Events of every experiment (the home page's live view). */
    @Operation(summary = "Server-sent progress events of every experiment")
    @ApiResponse(responseCode = "200", description = "the events, as they happen", content = @Content(
            mediaType = MediaType.TEXT_EVENT_STREAM_VALUE, schema = @Schema(type = "string")))
    @ApiResponse(responseCode = "429", description = TOO_MANY_STREAMS)
    @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter allEvents(HttpServletRequest request) {
        return events.subscribe(ExperimentEvents.ALL, client(request));
    }

    /** Who opens an event stream, as its limit per client counts: the user or token signed in, else the address. */
    private static String client(HttpServletRequest request) {
        Principal user = request.getUserPrincipal();
        return user != null ? "'" + user.getName() + "'" : "address " + request.getRemoteAddr();
    }

    @Operation(summary = "One experiment: status, progress, variants and per-metric comparison")
    @GetMapping("/{id}")
    ExperimentView get(@PathVariable long id) {
        return experiments.view(id);
    }

    /**
     * An upload of one side against the base it was compared with when it came in: the comparison its answer gave and
     * its CI gate judged, made again from the stored runs of both.
     */
    @GetMapping("/{id}/base-comparison")
    @Operation(summary = "An upload of one side compared with its base, as when it was uploaded")
    BaseComparison baseComparison(@PathVariable long id) {
        ExperimentRecord experiment = experiments.get(id);
        return Optional.ofNullable(bases.getIfAvailable()).flatMap(source -> source.of(id))
                .orElseThrow(() -> new NotFoundException("Experiment " + id + " has no base comparison: "
                        + (experiment.kind() != ExperimentKind.UPLOAD ? "it is not an upload"
                        : "it is not an upload of one side that found an earlier upload of its benchmark (at its base "
                        + "commit or on the base branch) when it came in, or that upload was deleted since")
                        + "."));
    }

    /**
     * Events of one experiment. A finished one (its page was opened while it ran, and it ended before the page
     * subscribed) has no event to come: its stream says its status once and ends, so the page shows the end instead of
     * waiting half an hour for a status it missed. The status is read after subscribing, so an end between the two is
     * sent at least once.
     */
    @Operation(summary = "Server-sent progress events of one experiment")
    @ApiResponse(responseCode = "200", description = "its events, as they happen; of a finished one, its status "
            + "once", content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE,
                    schema = @Schema(type = "string")))
    @ApiResponse(responseCode = "429", description = TOO_MANY_STREAMS)
    @GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter events(@PathVariable long id, HttpServletRequest request) {
        experiments.get(id);
        SseEmitter emitter = events.subscribe(id, client(request));
        ExperimentStatus status = experiments.get(id).status();
        if (status.finished()) {
            events.end(id, emitter, status);
        }
        return emitter;
    }

    /**
     * Every sample, written as it is read from the database (an upload may hold millions; see
     * {@link ExperimentRepository#forEachSample} for the order): one object per sample, failed runs' too, each with
     * its run's status, since the analysis takes the {@code OK} runs only; {@code pair} and {@code window} in a
     * paired design only.
     */
    @Operation(summary = "An experiment's raw samples, as JSON or CSV")
    @GetMapping(path = "/{id}/samples", produces = MediaType.APPLICATION_JSON_VALUE)
    @ApiResponse(responseCode = "200", description = "every sample",
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, array = @ArraySchema(
                    schema = @Schema(implementation = SampleRow.class))))
    void samples(@PathVariable long id, HttpServletResponse response) throws IOException {
        experiments.get(id);
        Map<String, MetricDefinition> definitions = experiments.metricDefinitions(id);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        try (JsonGenerator rows = json.createGenerator(response.getOutputStream())) {
            rows.writeStartArray();
            experiments.forEachSample(id, (variant, ordinal, status, metric, value, cpuSplit, pair, window) -> {
                rows.writeStartObject();
                rows.writeNumberProperty("experiment", id);
                rows.writeStringProperty("variant", variant);
                rows.writeNumberProperty("ordinal", ordinal);
                rows.writeStringProperty("status", status);
                rows.writeStringProperty("metric", metric);
                rows.writeNumberProperty("value", value);
                rows.writeStringProperty("unit", unit(definitions, metric));
                if (cpuSplit != null) {
                    rows.writeStringProperty("cpuSplit", cpuSplit);
                }
                if (pair != null) {
                    rows.writeNumberProperty("pair", pair);
                    if (window != null) {
                        rows.writeNumberProperty("window", window);
                    }
                }
                rows.writeEndObject();
            });
            rows.writeEndArray();
        }
    }

    /**
     * The samples as CSV, written as they are read; the pair and window columns only for a paired design, then the
     * run's status and the CPU split, last, so that the columns before them stay where they were.
     */
    @Operation(summary = "An experiment's raw samples, as JSON or CSV")
    @ApiResponse(responseCode = "200", description = "every sample, a row each", content = @Content(
            mediaType = "text/csv", schema = @Schema(type = "string")))
    @GetMapping(path = "/{id}/samples", produces = "text/csv")
    void samplesCsv(@PathVariable long id, HttpServletResponse response) throws IOException {
        boolean paired = experiments.get(id).paired();
        Map<String, MetricDefinition> definitions = experiments.metricDefinitions(id);
        response.setContentType(new MediaType("text", "csv", StandardCharsets.UTF_8).toString());
        response.setHeader("Content-Disposition", "attachment; filename=\"experiment-" + id + "-samples.csv\"");
        Writer csv = new BufferedWriter(new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8),
                1 << 16);
        csv.write("experiment,variant,run,metric,value,unit" + (paired ? ",pair,window" : "") + ",status,cpu_split\n");
        experiments.forEachSample(id, (variant, ordinal, status, metric, value, cpuSplit, pair, window) -> {
            try {
                csv.write(id + "," + variant + "," + ordinal + "," + csvField(metric) + "," + value + ","
                        + csvField(unit(definitions, metric)));
                if (paired) {
                    csv.write("," + (pair == null ? "" : pair) + "," + (window == null ? "" : window));
                }
                csv.write("," + status + "," + (cpuSplit == null ? "" : cpuSplit));
                csv.write('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        csv.flush();
    }

    private static String unit(Map<String, MetricDefinition> definitions, String metric) {
        MetricDefinition definition = definitions.get(metric);
        return definition == null ? "" : definition.unit();
    }

    @Operation(summary = "Cancel an experiment that has not finished")
    @ApiResponse(responseCode = "202", description = "asked: a queued experiment is cancelled, a running one once "
            + "its trial in flight is stopped")
    @ApiResponse(responseCode = "403", description = STARTED_BY_SOMEONE_ELSE)
    @ApiResponse(responseCode = "409", description = "it has ended: only a QUEUED, RUNNING or "
            + "INTERRUPTED experiment can be cancelled")
    @PostMapping("/{id}/cancel")
    ResponseEntity<Control> cancel(@PathVariable long id, Authentication authentication) {
        experiments.cancel(id, ExperimentCaller.of(authentication));
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(new Control(id, Control.CANCEL, null));
    }

    @Operation(summary = "Resume a stopped experiment: queue it again to run only its missing runs",
            description = "202 and QUEUED; 200 and COMPLETED when no run is missing (every trial or pair is stored, "
                    + "or its stopping rule stopped it): it completes at once instead of waiting for a host; "
                    + "FAILED instead when its last run had more failures than its maxFailures.")
    @ApiResponse(responseCode = "202", description = "queued again (QUEUED)")
    @ApiResponse(responseCode = "200", description = "no run was missing: completed at once (COMPLETED or FAILED)")
    @ApiResponse(responseCode = "400", description = RUN_AGAIN_FLAGS)
    @ApiResponse(responseCode = "403", description = STARTED_BY_SOMEONE_ELSE + RUN_AGAIN_COMMAND)
    @ApiResponse(responseCode = "409", description = "it is not INTERRUPTED, CANCELLED or FAILED")
    @PostMapping("/{id}/resume")
    ResponseEntity<Control> resume(@PathVariable long id, Authentication authentication) {
        ExperimentStatus status = experiments.resume(id, ExperimentCaller.of(authentication));
        return ResponseEntity.status(status == ExperimentStatus.QUEUED ? HttpStatus.ACCEPTED : HttpStatus.OK)
                .body(new Control(id, null, status.name()));
    }

    @Operation(summary = "Re-run an experiment: queue a copy with its plan, design, stopping rule and host labels",
            description = "202 with the new experiment's id and Location, as its creation answers; the new one is "
                    + "the caller's (its createdBy), and the one re-run is left as it was. Checked as a new request "
                    + "of the caller's would be: a command experiment needs an administrator on a server that runs "
                    + "them (403), and JVM flags off the allow-list, or asking more memory than a trial JVM may take, "
                    + "are refused naming the variant's field (400).")
    @ApiResponse(responseCode = "202", description = "the new experiment, queued; Location is where to follow it")
    @ApiResponse(responseCode = "400", description = RUN_AGAIN_FLAGS)
    @ApiResponse(responseCode = "403", description = STARTED_BY_SOMEONE_ELSE + RUN_AGAIN_COMMAND)
    @ApiResponse(responseCode = "409", description = "it holds uploaded samples: PerfLab cannot run it again")
    @PostMapping("/{id}/rerun")
    ResponseEntity<Queued> rerun(@PathVariable long id, Authentication authentication) {
        return queued(experiments.rerun(id, ExperimentCaller.of(authentication)));
    }

    @Operation(summary = "Delete an experiment and its samples (admin)")
    @ApiResponse(responseCode = "204", description = "deleted")
    @ApiResponse(responseCode = "409", description = "it has not ended: cancel it first")
    @DeleteMapping("/{id}")
    ResponseEntity<Void> delete(@PathVariable long id) {
        experiments.delete(id);
        return ResponseEntity.noContent().build();
    }

    public static boolean isAdmin(Authentication authentication) {
        return authentication.getAuthorities().stream().anyMatch(a -> a.getAuthority().equals("ROLE_ADMIN"));
    }

    private static <E extends Enum<E>> E parse(String field, String value, Class<E> type) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Enum.valueOf(type, value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw InvalidInputException.of(field, "unknown value '" + PrintableText.Validator.quoted(value)
                    + "'; allowed: "
                    + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT));
        }
    }

    /**
     * A CSV field: quoted when it holds a comma, quote or line break; a text that a spreadsheet would run as a
     * formula (it starts with {@code = + - @}, a tab or a carriage return) is prefixed with {@code '}, as OWASP
     * advises, so that opening the file runs nothing.
     */
    static String csvField(String text) {
        String shown = !text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0 ? "'" + text : text;
        if (shown.contains(",") || shown.contains("\"") || shown.contains("\n") || shown.contains("\r")) {
            return '"' + shown.replace("\"", "\"\"") + '"';
        }
        return shown;
    }
}
