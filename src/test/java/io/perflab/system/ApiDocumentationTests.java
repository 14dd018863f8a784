package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.upload.UploadServer;
import java.net.http.HttpResponse;
import io.perflab.experiment.AgentRecord;
import io.perflab.experiment.ExperimentKind;
import io.perflab.experiment.ExperimentStatus;
import io.perflab.experiment.MetricComparison;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.security.ApiTokens;
import io.perflab.stats.Direction;
import io.perflab.stats.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The OpenAPI document describes PerfLab's API with a schema a client could be generated from. */
class ApiDocumentationTests extends UploadServer {

    private static final List<String> METHODS = List.of("get", "post", "put", "delete", "patch");

    /** An error's content: the API's problem, as application/problem+json. */
    private static final String PROBLEM =
            "{\"application/problem+json\":{\"schema\":{\"$ref\":\"#/components/schemas/Problem\"}}}";

    private static final String PAIRED = "a paired design's only";
    private static final String NOT_COMPUTED = "left out where it cannot be computed";

    /**
     * Each property of an answer that the API leaves out rather than write, and when it does. Every other property
     * of every schema an operation answers with is required.
     */
    private static final Map<String, String> OPTIONAL = Map.ofEntries(
            Map.entry("AssignedVariant.options", "an engine variant's only"),
            Map.entry("AssignedVariant.jvmArgs", "an engine variant's with JVM flags of its own only"),
            Map.entry("AssignedVariant.command", "a command variant's only"),
            Map.entry("AssignedVariant.metricsFormat", "a command variant's whose output is read only"),
            Map.entry("AssignedVariant.directory", "a command variant's with a working directory only"),
            Map.entry("AssignedVariant.environment", "a command variant's only"),
            Map.entry("ComparisonView.paired", "samples compared as pairs only"),
            Map.entry("Control.action", "a cancel's only"),
            Map.entry("Control.status", "a resume's only"),
            Map.entry("ExperimentView.paired", PAIRED),
            Map.entry("ExperimentView.summary", "a list's entries only"),
            Map.entry("FieldProblem.field", "left out for the input as a whole"),
            Map.entry("MetricComparison.paired", PAIRED),
            Map.entry("NextRun.kaliberaJonesWindowsPerPair", "left out where it is infinite"),
            Map.entry("PairAnswer.stopReason", "once the stopping rule stops the experiment only"),
            Map.entry("PairedFigures.welchPValueIgnoringPairing", NOT_COMPUTED),
            Map.entry("PairedFigures.welchDifferenceIgnoringPairing", NOT_COMPUTED),
            Map.entry("PairedFigures.welchCiLowIgnoringPairing", NOT_COMPUTED),
            Map.entry("PairedFigures.welchCiHighIgnoringPairing", NOT_COMPUTED),
            Map.entry("PairedFigures.betweenPairsSdPercent", NOT_COMPUTED),
            Map.entry("PairedFigures.withinPairSdPercent", NOT_COMPUTED),
            Map.entry("PairedFigures.nextRun", "left out where the costs or the variance components are unknown"),
            Map.entry("PairedFigures.warmup", "left out with one window per pair, or where it cannot be told"),
            Map.entry("PairedFigures.robust", NOT_COMPUTED),
            Map.entry("PairedFigures.sequential", "a target of the stopping rule's only"),
            Map.entry("Problem.type", "about:blank is left out"),
            Map.entry("Problem.instance", "left out of the refusals of the server itself, before any path is read"),
            Map.entry("Problem.errors", "a 400 for input the request wrote only"),
            Map.entry("SampleRow.cpuSplit", "user and system CPU of runs that recorded their split only"),
            Map.entry("SampleRow.pair", PAIRED),
            Map.entry("SampleRow.window", PAIRED),
            Map.entry("Sequential.t", NOT_COMPUTED),
            Map.entry("Sequential.tBoundary", "left out where the look spent no alpha"),
            Map.entry("Sequential.tFutility", "left out where the look had no futility bound"),
            Map.entry("Sequential.ciLowPercentIgnoringLooks", NOT_COMPUTED),
            Map.entry("Sequential.ciHighPercentIgnoringLooks", NOT_COMPUTED),
            Map.entry("Sequential.pValueIgnoringLooks", NOT_COMPUTED),
            Map.entry("Sequential.holmPValueIgnoringLooks", NOT_COMPUTED),
            Map.entry("Sequential.adjustedPercent", "left out while no look ended the target"),
            Map.entry("Sequential.adjustedCiLowPercent", "left out while no look ended the target"),
            Map.entry("Sequential.adjustedCiHighPercent", "left out while no look ended the target"));

    /** Names of the properties that hold one of a fixed set of values: each of an answer lists them as its enum. */
    private static final Set<String> FIXED = Set.of("status", "kind", "design", "verdict", "role", "outcome", "order",
            "direction", "action", "comparedWith", "spending", "alternative", "variant");

    /** Downloads in the format their name says, whatever the Accept header says. */
    private static final Set<String> DOWNLOADS = Set.of("GET /api/v1/experiments/{id}/report.html",
            "GET /api/v1/experiments/{id}/report.md", "GET /api/v1/experiments/{id}/report.txt");

    @Test
    void isTitledAndVersionedAsPerfLab() throws Exception {
        JsonNode doc = document();

        assertThat(doc.at("/info/title").asString()).isEqualTo("PerfLab API");
        assertThat(doc.at("/info/version").asString()).isNotBlank().isNotEqualTo("v0");
    }

    @Test
    void noOperationAnswersAnUntypedObject() throws Exception {
        JsonNode doc = document();
        List<String> untyped = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation == null) {
                    continue;
                }
                for (Map.Entry<String, JsonNode> response : operation.path("responses").properties()) {
                    for (Map.Entry<String, JsonNode> content : response.getValue().path("content").properties()) {
                        if (untyped(content.getValue().get("schema"), doc)) {
                            untyped.add(method.toUpperCase() + " " + path.getKey() + " " + response.getKey() + " "
                                    + content.getKey());
                        }
                    }
                }
            }
        }
        assertThat(untyped).isEmpty();
    }

    @Test
    void everyJsonRequestBodyHasASchemaAndAnExample() throws Exception {
        JsonNode doc = document();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            for (String method : METHODS) {
                JsonNode body = path.getValue().path(method).path("requestBody");
                for (Map.Entry<String, JsonNode> content : body.path("content").properties()) {
                    if (content.getKey().contains("json") && (untyped(content.getValue().get("schema"), doc)
                            || !content.getValue().has("examples") && !content.getValue().has("example"))) {
                        missing.add(method.toUpperCase() + " " + path.getKey() + " " + content.getKey());
                    }
                }
            }
        }
        assertThat(missing).isEmpty();
        assertThat(doc.at("/paths/~1api~1v1~1analyze/post/requestBody/content/application~1json/schema/$ref")
                .asString()).endsWith("AnalyzeRequest");
    }

    @Test
    void theExperimentRequestDocumentsThePairedDesigns() throws Exception {
        JsonNode doc = document();
        JsonNode examples = doc.at("/paths/~1api~1v1~1experiments/post/requestBody/content/application~1json/examples");

        assertThat(text(examples.at("/duet/value"))).contains("\"design\"", "\"pairs\"",
                "\"windowsPerPair\"", "\"target\"", "\"budget\"");
        assertThat(text(examples.at("/alternating/value"))).contains("alternating");
        JsonNode schema = doc.at("/components/schemas/ExperimentRequest/properties");
        assertThat(schema.has("design") && schema.has("pairs") && schema.has("windowsPerPair")
                && schema.has("target") && schema.has("budget")).as(schema.toString()).isTrue();
    }

    /** A name is 1 to 200 characters, as the API refuses a blank one: the schema said {@code "minLength": 0}. */
    @Test
    void theExperimentRequestsNameIsOneTo200Characters() throws Exception {
        JsonNode name = document().at("/components/schemas/ExperimentRequest/properties/name");

        assertThat(name.path("minLength").asInt(-1)).as(name.toString()).isEqualTo(1);
        assertThat(name.path("maxLength").asInt(-1)).as(name.toString()).isEqualTo(200);
    }

    /** A list's entries summarize their results; an upload of one side's summary is against its base, named. */
    @Test
    void theExperimentListDocumentsItsEntriesSummaryAndItsBase() throws Exception {
        JsonNode doc = document();
        JsonNode summary = doc.at("/components/schemas/ExperimentView/properties/summary");

        assertThat(text(summary.path("description"))).as(summary.toString())
                .contains("list's entries only", "base", "baseExperimentId", "baseCommit");
        JsonNode digest = doc.at("/components/schemas/ResultsDigest/properties");
        assertThat(digest.has("headline") && digest.has("compared") && digest.has("regressed")
                && digest.has("baseExperimentId") && digest.has("baseCommit")).as(digest.toString()).isTrue();
        assertThat(text(digest.at("/baseExperimentId/description"))).contains("base upload");
    }

    /**
     * The upload's summary said "Upload two files" though a body of one file is taken too: it names the bodies taken,
     * and its multipart schema offers the one file 'file' or the two files.
     */
    @Test
    void theUploadOperationSaysWhichBodiesItTakes() throws Exception {
        JsonNode upload = document().at("/paths/~1api~1v1~1uploads/post");

        assertThat(upload.path("summary").asString()).contains("request body", "'file'", "'without'", "'with'")
                .doesNotStartWith("Upload two files");
        assertThat(upload.path("description").asString()).contains("--data-binary @FILE", "-F file=@FILE",
                "-F without=@OLD -F with=@NEW", "?variant=");
        assertThat(upload.at("/requestBody/content/multipart~1form-data/schema/oneOf").toString())
                .contains("OneFile", "TwoFiles");
    }

    /** Most operations, /api/v1/analyze among them, had no summary; some agents' ones were paragraphs. */
    @Test
    void everyApiOperationHasAOneLineSummary() throws Exception {
        JsonNode doc = document();
        List<String> without = new ArrayList<>();
        int operations = 0;
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation == null || !path.getKey().startsWith("/api/v1/")) {
                    continue;
                }
                operations++;
                String summary = operation.path("summary").asString("");
                if (summary.isBlank() || summary.length() > 120 || summary.contains("\n")) {
                    without.add(method.toUpperCase() + " " + path.getKey() + ": '" + summary + "'");
                }
            }
        }
        assertThat(operations).isGreaterThan(30);
        assertThat(without).isEmpty();
        assertThat(doc.at("/paths/~1api~1v1~1analyze/post/summary").asString()).startsWith("Compare two samples");
    }

    /**
     * What the API answers as null is nullable, as a generated client must know: an unbounded interval end, a
     * statistic that could not be computed, a time not reached yet, an experiment no host waits for. Every such field
     * said it could not be null, and the list entry's summary, written {@code "type": "null"} beside its reference,
     * could be nothing else.
     */
    @Test
    void whatTheApiAnswersAsNullIsNullable() throws Exception {
        JsonNode schemas = document().at("/components/schemas");

        for (String figure : List.of("TTestView/properties/ciLow", "MetricComparison/properties/pValue",
                "MetricComparison/properties/runsPerVariantFor1Percent", "ExperimentView/properties/queuePosition",
                "ExperimentView/properties/startedAt", "ExperimentView/properties/error",
                "VariantRecord/properties/command", "ApiToken/properties/revokedAt",
                "HistoryPoint/properties/commit", "UploadResponse/properties/baseCommit",
                "WarningView/properties/group", "AgentView/properties/experimentId")) {
            assertThat(schemas.at("/" + figure + "/type").toString()).as(figure).contains("\"null\"");
        }
        assertThat(schemas.at("/ExperimentView/properties/waitingForHost/oneOf").toString())
                .isEqualTo("[{\"$ref\":\"#/components/schemas/HostWait\"},{\"type\":\"null\"}]");
        assertThat(schemas.at("/ComparisonView/properties/relativeChange/oneOf").toString()).contains("null");
        JsonNode summary = schemas.at("/ExperimentView/properties/summary");
        assertThat(summary.has("type")).as(summary.toString()).isFalse();
        assertThat(schemas.at("/ExperimentView/properties/name/type").asString()).isEqualTo("string");
        assertThat(schemas.at("/TTestView/properties/pValue/type").asString()).isEqualTo("number");
    }

    /**
     * A list's items and a map's values are not null: the API writes none and refuses one. Every list or map of
     * boxed figures said its items could be (a paired figure's pairPercents, an upload's samples, a trial's metrics).
     */
    @Test
    void aListsItemsAndAMapsValuesAreNeverNull() throws Exception {
        JsonNode schemas = document().at("/components/schemas");
        List<String> nullable = new ArrayList<>();
        for (Map.Entry<String, JsonNode> schema : schemas.properties()) {
            for (Map.Entry<String, JsonNode> property : schema.getValue().path("properties").properties()) {
                for (String part : List.of("items", "additionalProperties")) {
                    if (property.getValue().path(part).path("type").toString().contains("null")) {
                        nullable.add(schema.getKey() + "." + property.getKey() + "." + part);
                    }
                }
            }
        }

        assertThat(nullable).isEmpty();
        assertThat(schemas.at("/PairedFigures/properties/pairPercents/items/type").asString()).isEqualTo("number");
        assertThat(schemas.at("/PostedTrial/properties/metrics/additionalProperties/type").asString())
                .isEqualTo("number");
    }

    /**
     * Each operation says what it answers: no response of any media type ({@code *}{@code /*}), and every error a
     * problem of the schema the API writes. No error status was documented at all, and most operations answered
     * {@code *}{@code /*} with 200 where they answer 201, 202 or 204 (ApiResponseSchemaTests checks the answers).
     */
    @Test
    void everyOperationSaysItsMediaTypesAndItsErrorsAsProblems() throws Exception {
        JsonNode doc = document();
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            for (String method : METHODS) {
                JsonNode responses = path.getValue().path(method).path("responses");
                if (responses.isMissingNode()) {
                    continue;
                }
                String operation = method.toUpperCase() + " " + path.getKey();
                if (!responses.has("400") || !responses.has("401")) {
                    wrong.add(operation + ": no 400 or 401");
                }
                for (Map.Entry<String, JsonNode> response : responses.properties()) {
                    JsonNode content = response.getValue().path("content");
                    if (content.has("*/*")) {
                        wrong.add(operation + " " + response.getKey() + ": */*");
                    }
                    if (response.getKey().startsWith("4") && !content.toString().equals(PROBLEM)) {
                        wrong.add(operation + " " + response.getKey() + ": " + content);
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(doc.at("/components/schemas/Problem/required").toString()).contains("title", "status", "detail");
        assertThat(doc.at("/paths/~1api~1v1~1experiments/post/responses").propertyNames())
                .contains("202", "403", "415").doesNotContain("200");
        assertThat(doc.at("/paths/~1api~1v1~1uploads/post/responses").propertyNames()).contains("201", "409", "413");
        assertThat(doc.at("/components/schemas").has("SseEmitter")).isFalse();
    }

    /**
     * A re-run is answered as a creation is, the new experiment's {@code Queued} with its Location, so that a client
     * reads both alike; and it says each refusal it answers, as cancel and resume do.
     */
    @Test
    void theReRunIsDocumentedAsACreationIsAnsweredWithEachRefusal() throws Exception {
        JsonNode paths = document().get("paths");
        JsonNode rerun = paths.at("/~1api~1v1~1experiments~1{id}~1rerun/post/responses");

        assertThat(rerun.propertyNames()).containsExactly("202", "400", "401", "403", "404", "406", "409");
        assertThat(rerun.at("/202/content")).isEqualTo(paths.at("/~1api~1v1~1experiments/post/responses/202/content"));
        assertThat(rerun.at("/202/content/application~1json/schema/$ref").asString()).endsWith("/Queued");
        assertThat(rerun.at("/400/description").asString()).contains("withJvmArgs");
        assertThat(rerun.at("/403/description").asString()).contains("someone else started it",
                "command experiments are disabled on this server, or need an administrator");
        assertThat(rerun.at("/409/description").asString()).contains("uploaded samples");
    }

    /**
     * A resume runs again what a re-run would, and is refused alike: a JVM flag with a 400 naming its field, a command
     * experiment with a 403. The document said JVM flags were a 403 an administrator alone passed, and its 400 spoke
     * of a body, which a resume has none of.
     */
    @Test
    void aResumeIsDocumentedToRefuseWhatItWouldRunAsTheReRunIs() throws Exception {
        JsonNode paths = document().get("paths");
        JsonNode resume = paths.at("/~1api~1v1~1experiments~1{id}~1resume/post/responses");
        JsonNode rerun = paths.at("/~1api~1v1~1experiments~1{id}~1rerun/post/responses");

        assertThat(resume.at("/400/description").asString()).contains("withJvmArgs")
                .isEqualTo(rerun.at("/400/description").asString());
        assertThat(resume.at("/403/description").asString()).doesNotContain("JVM")
                .isEqualTo(rerun.at("/403/description").asString());
    }

    /**
     * A client generated from the document has a plain field for what every answer holds: each property the API
     * writes whatever its value is required (null or not), and only those it leaves out, for the reasons above, are
     * optional, and never null. Every property of every answer was optional, an {@code Optional<T>} or a
     * {@code T | undefined} to the client, as if the API could leave out an experiment's id or status.
     */
    @Test
    void everyPropertyOfAnAnswerIsRequiredUnlessLeftOutForAStatedReason() throws Exception {
        JsonNode doc = document();
        Map<String, JsonNode> optional = new TreeMap<>();
        for (String name : answered(doc)) {
            JsonNode schema = doc.at("/components/schemas/" + name);
            Set<String> required = new HashSet<>();
            schema.path("required").forEach(property -> required.add(property.asString()));
            for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
                if (!required.contains(property.getKey())) {
                    optional.put(name + "." + property.getKey(), property.getValue());
                }
            }
        }

        assertThat(optional.keySet()).containsExactlyInAnyOrderElementsOf(OPTIONAL.keySet());
        optional.forEach((property, schema) -> assertThat(schema.toString()).as(property + " is left out, never null")
                .doesNotContain("\"null\""));
        JsonNode schemas = doc.at("/components/schemas");
        assertThat(names(schemas.at("/ExperimentView/required"))).contains("id", "status", "kind", "results",
                "error", "waitingForHost").doesNotContain("paired", "summary");
        assertThat(names(schemas.at("/MetricComparison/required"))).contains("metric", "direction", "nWith",
                "pValue", "verdict").doesNotContain("paired");
        assertThat(names(schemas.at("/ApiPageExperimentView/required"))).containsExactlyInAnyOrder("items", "page",
                "size", "total");
    }

    /**
     * A request's schema requires what the API refuses a body without, and nothing else: what its reader refuses to go
     * without (a token's name, a trial's variant), and each field a record reads into a primitive (an agent's
     * runsCommands, a trial's ordinal), which the JSON mapper refuses as "missing or null". None of them was required.
     */
    @Test
    void aRequestRequiresWhatTheApiRefusesWithout() throws Exception {
        JsonNode schemas = document().at("/components/schemas");

        assertThat(names(schemas.at("/ExperimentRequest/required"))).containsExactly("name");
        assertThat(names(schemas.at("/AnalyzeRequest/required"))).containsExactlyInAnyOrder("with", "without");
        assertThat(names(schemas.at("/CreateToken/required"))).containsExactly("name");
        assertThat(names(schemas.at("/Registration/required"))).containsExactlyInAnyOrder("name", "runsCommands");
        assertThat(names(schemas.at("/Finish/required"))).containsExactly("outcome");
        assertThat(names(schemas.at("/PostedTrial/required"))).containsExactlyInAnyOrder("variant", "ordinal",
                "status", "pid");
        assertThat(names(schemas.at("/PostedWindow/required"))).containsExactlyInAnyOrder("pair", "startedFirst");
        assertThat(names(schemas.at("/PostedMetric/required"))).containsExactly("higherIsBetter");
        assertThat(names(schemas.at("/PostedPair/required"))).containsExactlyInAnyOrder("index", "status", "first",
                "setupSeconds", "measuringSeconds", "results");
        for (String optional : List.of("NativeUpload", "UploadMetric", "Side", "Git", "WorkloadSettings")) {
            assertThat(schemas.at("/" + optional + "/required").isMissingNode()).as(optional).isTrue();
        }
        HttpResponse<String> token = post("/api/v1/tokens", ADMIN_TOKEN, "application/json", "{}");
        assertThat(token.statusCode()).isEqualTo(400);
        assertThat(read(token.body()).path("detail").asString()).startsWith("name: ");
        for (String field : List.of("name", "runsCommands")) {
            String others = field.equals("name") ? "{\"runsCommands\": false}" : "{\"name\": \"required check\"}";
            HttpResponse<String> agent = post("/api/v1/agents", ADMIN_TOKEN, "application/json", others);
            assertThat(agent.statusCode()).as(agent.body()).isEqualTo(400);
            assertThat(read(agent.body()).at("/errors/0/field").asString()).as(agent.body()).isEqualTo(field);
        }
    }

    /**
     * A status, kind, verdict, role or other value of a fixed set is an enum of the values the code writes, taken
     * from its Java enum: each was a string that could hold anything, to a generated client.
     */
    @Test
    void everyStatusKindAndVerdictOfAnAnswerIsAnEnumOfTheValuesTheCodeWrites() throws Exception {
        JsonNode doc = document();
        List<String> plain = new ArrayList<>();
        for (String name : answered(doc)) {
            for (Map.Entry<String, JsonNode> property : doc.at("/components/schemas/" + name).path("properties")
                    .properties()) {
                String field = name + "." + property.getKey();
                boolean text = property.getValue().path("type").toString().contains("string");
                if (FIXED.contains(property.getKey()) && text && !property.getValue().has("enum")) {
                    plain.add(field);
                }
            }
        }
        assertThat(plain).isEmpty();

        JsonNode schemas = doc.at("/components/schemas");
        assertThat(values(schemas, "ExperimentView", "status")).isEqualTo(names(ExperimentStatus.values()));
        assertThat(values(schemas, "ExperimentView", "kind")).isEqualTo(names(ExperimentKind.values()).stream()
                .map(kind -> kind.toLowerCase(Locale.ROOT)).toList());
        assertThat(values(schemas, "ExperimentView", "design")).isEqualTo(Arrays.stream(ExperimentDesign.values())
                .map(ExperimentDesign::label).toList());
        assertThat(values(schemas, "Plan", "order")).isEqualTo(Arrays.stream(TrialOrder.values())
                .map(TrialOrder::label).toList());
        assertThat(values(schemas, "MetricComparison", "verdict")).isEqualTo(Stream.concat(Arrays.stream(
                Verdict.values()).map(Verdict::label), Stream.of(MetricComparison.NOT_COMPARED)).toList());
        assertThat(values(schemas, "Badge", "verdict")).isEqualTo(values(schemas, "MetricComparison", "verdict"));
        assertThat(values(schemas, "MetricComparison", "direction")).containsExactlyInAnyOrder("lower", "higher")
                .isEqualTo(Arrays.stream(Direction.values()).map(Direction::label).toList());
        assertThat(values(schemas, "AgentView", "status")).isEqualTo(names(AgentRecord.Status.values()));
        assertThat(values(schemas, "ApiToken", "role")).isEqualTo(names(ApiTokens.TokenRole.values()));
        assertThat(values(schemas, "SampleRow", "status")).isEqualTo(names(TrialStatus.values()));
        assertThat(values(schemas, "Queued", "status")).containsExactly("QUEUED");
        assertThat(values(schemas, "Assignment", "kind")).containsExactly("ENGINE", "COMMAND")
                .isSubsetOf(names(ExperimentKind.values()));
        assertThat(values(schemas, "UploadResponse", "comparedWith")).containsExactly("variants", "base", "none");
    }

    /**
     * An Accept header that takes none of what an operation answers is refused with 406 before the operation does
     * anything (ApiResponseSchemaTests sends one to each); the document said so of the report only, and a write was
     * done before its answer was refused. Downloads named by their format answer it whatever Accept says.
     */
    @Test
    void everyOperationButADownloadSaysItRefusesAnAcceptItCannotAnswer() throws Exception {
        JsonNode doc = document();
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            for (String method : METHODS) {
                JsonNode responses = path.getValue().path(method).path("responses");
                String operation = method.toUpperCase(Locale.ROOT) + " " + path.getKey();
                if (!responses.isMissingNode() && responses.has("406") == DOWNLOADS.contains(operation)) {
                    wrong.add(operation);
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(doc.at("/paths/~1api~1v1~1experiments~1{id}~1samples/get/responses/406/description").asString())
                .contains("application/json", "text/csv");
    }

    /**
     * An upload's metric had the schema of an experiment's compared metric ({@code metric}, {@code unit},
     * {@code direction}, {@code description}): the two records shared a name, and a client generated from the
     * document had no field for a metric's values.
     */
    @Test
    void theUploadsMetricHasItsOwnSchema() throws Exception {
        JsonNode schemas = document().at("/components/schemas");

        assertThat(schemas.at("/NativeUpload/properties/metrics/additionalProperties/$ref").asString())
                .isEqualTo("#/components/schemas/UploadMetric");
        assertThat(schemas.at("/Side/properties/metrics/additionalProperties/$ref").asString())
                .isEqualTo("#/components/schemas/UploadMetric");
        assertThat(schemas.at("/UploadMetric/properties").propertyNames()).containsExactlyInAnyOrder("unit",
                "direction", "values");
        assertThat(schemas.has("Metric")).isFalse();
    }

    @Test
    void theRuleCatchesAnUntypedSchema() {
        JsonNode doc = json.readTree("{\"components\":{\"schemas\":{\"Open\":{\"type\":\"object\"},"
                + "\"Typed\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}}}}}}");

        assertThat(untyped(json.readTree("{\"$ref\":\"#/components/schemas/Open\"}"), doc)).isTrue();
        assertThat(untyped(json.readTree("{\"type\":\"object\",\"additionalProperties\":{}}"), doc)).isTrue();
        assertThat(untyped(json.readTree("{\"$ref\":\"#/components/schemas/Typed\"}"), doc)).isFalse();
        assertThat(untyped(json.readTree("{\"type\":\"array\",\"items\":{\"$ref\":\"#/components/schemas/Typed\"}}"),
                doc)).isFalse();
        assertThat(untyped(json.readTree("{\"type\":\"string\"}"), doc)).isFalse();
    }

    /** An object schema without properties (a map of anything), or an array of such. */
    static boolean untyped(JsonNode schema, JsonNode doc) {
        if (schema == null || schema.isMissingNode()) {
            return true;
        }
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asString().replace("#/components/schemas/", "");
            return untyped(doc.path("components").path("schemas").path(name), doc);
        }
        String type = schema.path("type").asString("");
        if (type.equals("array")) {
            return untyped(schema.get("items"), doc);
        }
        if (type.equals("object") || type.isEmpty()) {
            return !schema.has("properties") && !schema.has("allOf") && !schema.has("oneOf");
        }
        return false;
    }

    /** The components that an operation answers with, and those they refer to. */
    static Set<String> answered(JsonNode doc) {
        Set<String> answered = new TreeSet<>();
        for (JsonNode path : doc.path("paths")) {
            for (JsonNode operation : path) {
                for (JsonNode response : operation.path("responses")) {
                    refer(response.path("content"), doc, answered);
                }
            }
        }
        return answered;
    }

    private static void refer(JsonNode node, JsonNode doc, Set<String> reached) {
        if (node.isObject() && node.has("$ref")) {
            String name = node.get("$ref").asString().replace("#/components/schemas/", "");
            if (reached.add(name)) {
                refer(doc.path("components").path("schemas").path(name), doc, reached);
            }
        }
        for (JsonNode child : node) {
            refer(child, doc, reached);
        }
    }

    private static List<String> values(JsonNode schemas, String schema, String property) {
        List<String> values = new ArrayList<>();
        schemas.path(schema).path("properties").path(property).path("enum").forEach(v -> values.add(v.asString()));
        return values;
    }

    private static List<String> names(Enum<?>[] constants) {
        return Arrays.stream(constants).map(Enum::name).toList();
    }

    private static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(name -> names.add(name.asString()));
        return names;
    }

    /** An example as JSON text, whether the document holds it as an object or as a string. */
    private static String text(JsonNode example) {
        return example.isValueNode() ? example.asString() : example.toString();
    }

    private JsonNode document() throws Exception {
        HttpResponse<String> response = get("/v3/api-docs");
        assertThat(response.statusCode()).isEqualTo(200);
        return read(response.body());
    }
}
