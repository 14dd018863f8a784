package io.perflab.experiment;

import io.perflab.system.ApiPage;
import io.perflab.system.ApiProblem;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

/** {@code /api/v1/experiments}: queue, follow, control and read engine and command A/B experiments. */
@RestController
@RequestMapping("/api/v1/experiments")
class ExperimentApiController {

    private final ExperimentService experiments;
    private final ExperimentEvents events;

    ExperimentApiController(ExperimentService experiments, ExperimentEvents events) {
        this.experiments = experiments;
        this.events = events;
    }

    /** The answer to a queued experiment: its id, its status and where to follow it. */
    record Queued(long id, String status, String url, String page) {
    }

    /** The answer to a control request: the experiment and what was asked ({@code cancel}) or what it is now. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Control(long id, String action, String status) {
    }

    /** One sample row of {@code /samples}; {@code pair} and {@code window} in a paired design only. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record SampleRow(long experiment, String variant, int ordinal, String metric, double value, String unit,
                     Integer pair, Integer window) {
    }

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
        long id = experiments.create(request, authentication.getName(), isAdmin(authentication));
        URI location = ServletUriComponentsBuilder.fromCurrentRequest().path("/{id}").buildAndExpand(id).toUri();
        return ResponseEntity.accepted().location(location).body(new Queued(id, ExperimentStatus.QUEUED.name(),
                location.toString(), ServletUriComponentsBuilder.fromCurrentContextPath().path("/experiments/{id}")
                        .buildAndExpand(id).toUriString()));
    }

    @GetMapping
    ApiPage<ExperimentView> list(@RequestParam(required = false) String status,
            @RequestParam(required = false) String name, @RequestParam(required = false) String kind,
            @RequestParam(required = false) String benchmark, @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "20") int size) {
        ApiPage.check(page, size);
        ExperimentStatus statusFilter = parse("status", status, ExperimentStatus.class);
        ExperimentKind kindFilter = parse("kind", kind, ExperimentKind.class);
        ExperimentFilter filter = new ExperimentFilter(statusFilter, name, kindFilter, benchmark, false);
        List<ExperimentView> items = experiments.list(filter, page, size).stream()
                .map(experiments::summary)
                .toList();
        return new ApiPage<>(items, page, size, experiments.count(filter));
    }

    /** Events of every experiment (the home page's live view). */
    @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter allEvents() {
        return events.subscribe(ExperimentEvents.ALL);
    }

    @GetMapping("/{id}")
    ExperimentView get(@PathVariable long id) {
        return experiments.view(id);
    }

    @GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter events(@PathVariable long id) {
        experiments.get(id);
        return events.subscribe(id);
    }

    @GetMapping(path = "/{id}/samples", produces = MediaType.APPLICATION_JSON_VALUE)
    List<SampleRow> samples(@PathVariable long id) {
        Map<String, MetricDefinition> definitions = experiments.metricDefinitions(id);
        List<SampleRow> rows = new ArrayList<>();
        for (RunRecord run : experiments.runs(id)) {
            Integer pair = run.pair() == null ? null : run.pair().index();
            Integer window = run.pair() == null ? null : run.pair().window();
            run.metrics().forEach((metric, value) -> rows.add(new SampleRow(id, run.variant(), run.ordinal(), metric,
                    value, definitions.containsKey(metric) ? definitions.get(metric).unit() : "", pair, window)));
        }
        return rows;
    }

    @GetMapping(path = "/{id}/samples", produces = "text/csv")
    ResponseEntity<String> samplesCsv(@PathVariable long id) {
        List<SampleRow> rows = samples(id);
        // the pair and window columns only for a paired design, so that the fresh design's file stays as it was
        boolean paired = rows.stream().anyMatch(r -> r.pair() != null);
        StringBuilder csv = new StringBuilder("experiment,variant,run,metric,value,unit"
                + (paired ? ",pair,window" : "") + "\n");
        for (SampleRow row : rows) {
            csv.append(row.experiment()).append(',').append(row.variant()).append(',').append(row.ordinal())
                    .append(',').append(csvField(row.metric())).append(',').append(row.value()).append(',')
                    .append(csvField(row.unit()));
            if (paired) {
                csv.append(',').append(row.pair() == null ? "" : row.pair()).append(',')
                        .append(row.window() == null ? "" : row.window());
            }
            csv.append('\n');
        }
        return ResponseEntity.ok()
                .contentType(new MediaType("text", "csv", java.nio.charset.StandardCharsets.UTF_8))
                .header("Content-Disposition", "attachment; filename=\"experiment-" + id + "-samples.csv\"")
                .body(csv.toString());
    }

    @PostMapping("/{id}/cancel")
    ResponseEntity<Control> cancel(@PathVariable long id) {
        experiments.cancel(id);
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(new Control(id, "cancel", null));
    }

    @PostMapping("/{id}/resume")
    ResponseEntity<Control> resume(@PathVariable long id, Authentication authentication) {
        experiments.resume(id, isAdmin(authentication));
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(new Control(id, null,
                ExperimentStatus.QUEUED.name()));
    }

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
            throw ApiProblem.badRequest(field + ": unknown value '" + value + "'; allowed: "
                    + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT));
        }
    }

    private static String csvField(String text) {
        if (text.contains(",") || text.contains("\"") || text.contains("\n")) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }
}
