package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.upload.UploadServer;
import java.io.InputStream;
import java.io.Reader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.ValueConstants;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * README: every refused {@code /api/**} request is answered 400 as a problem whose {@code errors[]} names each field
 * at fault as the request wrote it (a body's {@code workload.clientThreads}, a query's {@code page}, a path's
 * {@code id}, a header's {@code Accept}), or, for the input as a whole (JSON that does not parse), holds its message
 * without a field; the {@code detail} says the same. Each API operation of the running service (its request mappings
 * under {@code /api/}, with their path variables and query parameters, and the JSON body, schema and example that
 * {@code /v3/api-docs} documents for it) is sent malformed requests of each kind: a new operation is covered as it is
 * mapped. A request that must be refused and is not fails, as does a 400 without {@code errors[]} or naming another
 * field. The requests name ids that nothing has, but for an agent's: only its owner reaches its operations (others are
 * told 404 or 403 before anything is read), so they name one of this class's that has left, which claims and stores
 * nothing. Nothing is stored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RefusedInputFieldsTests extends UploadServer {

    /** An id that names nothing, so that a request that is let through finds nothing to act on. */
    private static final String NO_SUCH_ID = "999999";

    /** A query parameter or body field that no operation takes. */
    private static final String UNKNOWN = "perflabUnknown";

    private static final String JSON = "application/json";

    /** Whole numbers written as no path or query takes them: a word, a fraction, hexadecimal, beyond a long. */
    private static final List<String> NOT_WHOLE_NUMBERS = List.of("abc", "1.5", "0x7ffffff0", "99999%209",
            "99999999999999999999");

    /** A path or query variable of one value, as the service's mappings read it. */
    record Variable(String name, boolean number, boolean required) {
    }

    /**
     * One API operation: its method and path, the variables of its path, the query parameters it takes and whether it
     * reads a body, merged over the mappings of one method and path (a JSON and a CSV answer, a body or multipart).
     */
    record Operation(String method, String pattern, Map<String, Variable> path, Map<String, Variable> query,
                     boolean readsBody) {

        @Override
        public String toString() {
            return method + " " + pattern;
        }
    }

    record Answer(int status, String contentType, String location, String body) {

        @Override
        public String toString() {
            String shown = body.length() > 300 ? body.substring(0, 300) + "…" : body;
            return status + " " + shown.replaceAll("\\s+", " ");
        }
    }

    @Autowired
    private ApplicationContext context;

    private JsonNode document;
    private List<Operation> operations;
    /** An agent registered with the bootstrap token that has left: its messages are read, then refused. */
    private String agent;
    private final List<String> problems = new ArrayList<>();
    private Map<String, Long> before;

    @BeforeAll
    void operationsAndTheirDocument() throws Exception {
        HttpResponse<String> doc = get("/v3/api-docs");
        assertThat(doc.statusCode()).isEqualTo(200);
        document = read(doc.body());
        operations = operations();
        HttpResponse<String> registered = post("/api/v1/agents", ADMIN_TOKEN, JSON, "{\"name\": "
                + "\"refused-input-fields\", \"labels\": {\"pool\": \"refused-input-fields\"}, "
                + "\"runsCommands\": false}");
        assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
        agent = read(registered.body()).get("agentId").asString();
        HttpResponse<String> left = post("/api/v1/agents/" + agent + "/leave", ADMIN_TOKEN, JSON, "");
        assertThat(left.statusCode()).as(left.body()).isEqualTo(200);
    }

    @BeforeEach
    void nothingYet() {
        problems.clear();
        before = counts();
    }

    @AfterEach
    void everyRefusalNamedItsFieldAndNothingWasStored() {
        assertThat(problems).as("refusals that do not name the field at fault in errors[]").isEmpty();
        assertThat(counts()).as("nothing stored").isEqualTo(before);
    }

    /** The operations are those of the API, each with what it reads, so that the tests below have work to do. */
    @Test
    void everyOperationOfTheApiIsFound() {
        assertThat(operations).hasSizeGreaterThan(25).extracting(Operation::toString).contains(
                "POST /api/v1/analyze", "GET /api/v1/experiments", "GET /api/v1/experiments/{id}",
                "POST /api/v1/agents/{id}/experiments/{experimentId}/trials", "POST /api/v1/uploads");
        for (Operation operation : operations) {
            if (operation.readsBody()) {
                assertThat(example(operation)).as(operation + ": a JSON body and its example in /v3/api-docs")
                        .isNotNull();
            }
        }
    }

    @Test
    void aRefusedQueryParameterOrHeaderIsNamedAsItsField() throws Exception {
        for (Operation operation : operations) {
            String path = path(operation, Map.of());
            Map<String, String> required = requiredQuery(operation);
            // a body the operation refuses, should it not refuse its parameters first
            String body = operation.readsBody() ? "{}" : null;
            refused(operation, path, query(required, UNKNOWN, "1"), body, UNKNOWN, true);
            refused(operation, path, query(required, "", ""), body, "Accept", true, "Accept", "a/b/c");
            for (Variable parameter : operation.query().values()) {
                String name = parameter.name();
                String valid = parameter.number() ? "1" : "nonesuch";
                refused(operation, path, query(required, name, "%FF"), body, name, true);
                refused(operation, path, query(required, name, valid) + "&" + name + "=" + valid, body, name, true);
                if (parameter.required()) {
                    Map<String, String> without = new LinkedHashMap<>(required);
                    without.remove(name);
                    refused(operation, path, query(without, "", ""), body, name, true);
                }
                if (parameter.number()) {
                    for (String value : NOT_WHOLE_NUMBERS) {
                        refused(operation, path, query(required, name, value), body, name, true);
                    }
                    // out of range, or not: a 400 names it
                    for (String value : List.of("-1", "0", "99999")) {
                        refused(operation, path, query(required, name, value), body, name, false);
                    }
                } else if (operation.method().equals("GET")) {
                    refused(operation, path, query(required, name, "a%00b"), body, name, true);
                    refused(operation, path, query(required, name, "nonesuch"), body, name, false);
                }
            }
        }
    }

    @Test
    void aPathNumberThatIsNoneIsNamedByItsVariable() throws Exception {
        for (Operation operation : operations) {
            JsonNode example = operation.readsBody() ? example(operation) : null;
            for (Variable variable : operation.path().values()) {
                if (!variable.number()) {
                    continue;
                }
                for (String value : NOT_WHOLE_NUMBERS) {
                    refused(operation, path(operation, Map.of(variable.name(), value)),
                            query(requiredQuery(operation), "", ""), example == null ? null : example.toString(),
                            variable.name(), true);
                }
            }
        }
    }

    /**
     * Each body is sent malformed as a whole (JSON that does not parse, bytes that are not UTF-8, a multipart body that
     * cannot be read: an error without a field is right), as its example with a field it does not take, and as its
     * example with each of its schema's fields of the wrong type, a fraction or a number beyond a long where a whole
     * number belongs, beyond its documented bounds, left out where it is required, or null.
     */
    @Test
    void aRefusedBodyNamesTheFieldAtFault() throws Exception {
        for (Operation operation : operations) {
            JsonNode example = operation.readsBody() ? example(operation) : null;
            if (example == null) {
                continue;
            }
            String path = path(operation, Map.of());
            String query = query(requiredQuery(operation), "", "");
            for (String malformed : List.of("{", "{\"with\":", "{\"a\" 1}", "[1,", "{\"a\":1}}")) {
                refused(operation, path, query, malformed, null, true);
            }
            for (String whole : List.of("", "null", "[]", "\"text\"", "7")) {
                refused(operation, path, query, whole, null, false);
            }
            refusedBytes(operation, path + query, JSON, "{\"name\":\"a\u00c0\u00bcb\"}".getBytes(
                    StandardCharsets.ISO_8859_1));
            refusedBytes(operation, path + query, "multipart/form-data; boundary=b0undary", ("--b0undary\r\n"
                    + "Content-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nmetric,value\n")
                    .getBytes(StandardCharsets.UTF_8));
            refused(operation, path, query, with(example, UNKNOWN, json.getNodeFactory().numberNode(1)), UNKNOWN,
                    true);
            JsonNode schema = resolved(document.at("/paths/" + escaped(operation.pattern()) + "/"
                    + operation.method().toLowerCase(Locale.ROOT) + "/requestBody/content/application~1json/schema"));
            Set<String> required = new LinkedHashSet<>();
            schema.path("required").forEach(name -> required.add(name.asString()));
            for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
                String name = property.getKey();
                Set<String> types = types(property.getValue());
                // a field the example leaves out may clash with one it holds (an upload's 'with' block with its
                // 'metrics'): the refusal may name either
                Set<String> fields = new LinkedHashSet<>(Set.of(name));
                if (!example.has(name)) {
                    example.propertyNames().forEach(fields::add);
                }
                JsonNode wrong = types.isEmpty() ? null : wrongType(types);
                if (wrong != null) {
                    refusedNamingAny(operation, path, query, with(example, name, wrong), fields, true);
                }
                if (types.contains("integer")) {
                    for (String notAnInteger : List.of("2.5", "99999999999999999999")) {
                        refusedNamingAny(operation, path, query, with(example, name, numberNode(notAnInteger)), fields,
                                true);
                    }
                }
                JsonNode bounds = resolved(property.getValue());
                for (String bound : List.of("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")) {
                    if (bounds.path(bound).isNumber()) {
                        double beyond = bounds.get(bound).asDouble() + (bound.endsWith("inimum") ? -1 : 1);
                        refusedNamingAny(operation, path, query, with(example, name, numberNode(beyond % 1 == 0
                                ? Long.toString((long) beyond) : Double.toString(beyond))), fields, false);
                    }
                }
                if (required.contains(name)) {
                    ObjectNode without = (ObjectNode) example.deepCopy();
                    without.remove(name);
                    refused(operation, path, query, without.toString(), name, false);
                    refused(operation, path, query, with(example, name, json.getNodeFactory().nullNode()), name,
                            false);
                }
            }
        }
    }

    /**
     * A header the security firewall refuses before any handler (a byte of text that is not ASCII) is named as the
     * error's field, as one a handler refuses ({@code Idempotency-Key}, {@code Accept}) is.
     */
    @Test
    void aHeaderTheFirewallRefusesIsNamedAsItsField() throws Exception {
        String body = "{}";
        try (Socket socket = new Socket("localhost", port)) {
            socket.getOutputStream().write(("POST /api/v1/uploads HTTP/1.1\r\nHost: localhost\r\nAuthorization: "
                    + "Bearer " + ADMIN_TOKEN + "\r\nContent-Type: application/json\r\nIdempotency-Key: a\u00e2\u0080"
                    + "\u0094b\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body)
                    .getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String head = answer.substring(0, answer.indexOf("\r\n\r\n"));
            String rest = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            if (head.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
                rest = rest.substring(rest.indexOf("\r\n") + 2, rest.lastIndexOf("\r\n0\r\n"));
            }
            Matcher type = Pattern.compile("(?im)^Content-Type:\\s*(.+)$").matcher(head);
            check("POST /api/v1/uploads with a header of UTF-8 bytes", new Answer(Integer.parseInt(head.substring(9,
                    12)), type.find() ? type.group(1).strip() : "", "", rest), Set.of("Idempotency-Key"), true);
        }
    }

    /** Every mapping under {@code /api/}, merged by method and path. */
    private List<Operation> operations() {
        Map<String, Operation> merged = new TreeMap<>();
        DefaultParameterNameDiscoverer names = new DefaultParameterNameDiscoverer();
        for (RequestMappingInfoHandlerMapping mapping
                : context.getBeansOfType(RequestMappingInfoHandlerMapping.class).values()) {
            for (Map.Entry<RequestMappingInfo, HandlerMethod> handler : mapping.getHandlerMethods().entrySet()) {
                Map<String, Variable> path = new TreeMap<>();
                Map<String, Variable> query = new TreeMap<>();
                boolean body = false;
                for (MethodParameter parameter : handler.getValue().getMethodParameters()) {
                    parameter.initParameterNameDiscovery(names);
                    Class<?> type = parameter.getParameterType();
                    PathVariable variable = parameter.getParameterAnnotation(PathVariable.class);
                    RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
                    if (variable != null) {
                        String name = named(variable.name(), variable.value(), parameter);
                        path.put(name, new Variable(name, number(type), true));
                    } else if (param != null && !Map.class.isAssignableFrom(type)) {
                        String name = named(param.name(), param.value(), parameter);
                        query.put(name, new Variable(name, number(type), param.required()
                                && ValueConstants.DEFAULT_NONE.equals(param.defaultValue())));
                    } else if (parameter.hasParameterAnnotation(RequestBody.class)
                            || InputStream.class.isAssignableFrom(type) || Reader.class.isAssignableFrom(type)) {
                        body = true;
                    } else if (type.isRecord() && !parameter.hasParameterAnnotation(RequestPart.class)) {
                        // a record of query parameters (an upload's ?benchmark=&branch=…)
                        for (var component : type.getRecordComponents()) {
                            query.put(component.getName(), new Variable(component.getName(),
                                    number(component.getType()), false));
                        }
                    }
                }
                for (String pattern : handler.getKey().getPatternValues()) {
                    if (!pattern.startsWith("/api/")) {
                        continue;
                    }
                    for (var method : handler.getKey().getMethodsCondition().getMethods()) {
                        Operation found = new Operation(method.name(), pattern, path, query, body);
                        merged.merge(found.toString(), found, (a, b) -> {
                            Map<String, Variable> parameters = new TreeMap<>(a.query());
                            parameters.putAll(b.query());
                            return new Operation(a.method(), a.pattern(), a.path(), parameters,
                                    a.readsBody() || b.readsBody());
                        });
                    }
                }
            }
        }
        return new ArrayList<>(merged.values());
    }

    private static String named(String name, String value, MethodParameter parameter) {
        return StringUtils.hasText(name) ? name : StringUtils.hasText(value) ? value : parameter.getParameterName();
    }

    private static boolean number(Class<?> type) {
        return type == int.class || type == long.class || type == short.class
                || Number.class.isAssignableFrom(type) && type.getName().startsWith("java.lang.");
    }

    /**
     * The operation's path with each variable given its value from {@code values}, else {@link #NO_SUCH_ID} ("nonesuch"
     * for text), but an agent's id: {@link #agent}.
     */
    private String path(Operation operation, Map<String, String> values) {
        Matcher variable = Pattern.compile("\\{\\*?(\\w+)}").matcher(operation.pattern());
        StringBuilder path = new StringBuilder();
        while (variable.find()) {
            String name = variable.group(1);
            Variable of = operation.path().get(name);
            String value = values.getOrDefault(name, operation.pattern().startsWith("/api/v1/agents/{" + name + "}")
                    ? agent : of == null || of.number() ? NO_SUCH_ID : "nonesuch");
            variable.appendReplacement(path, Matcher.quoteReplacement(value));
        }
        variable.appendTail(path);
        return path.toString();
    }

    /** A value of each required query parameter that it may hold. */
    private static Map<String, String> requiredQuery(Operation operation) {
        Map<String, String> values = new LinkedHashMap<>();
        operation.query().values().stream().filter(Variable::required)
                .forEach(p -> values.put(p.name(), p.number() ? "1" : "nonesuch"));
        return values;
    }

    /** {@code ?} and the parameters of {@code values}, {@code name} with {@code value} in place of its own. */
    private static String query(Map<String, String> values, String name, String value) {
        Map<String, String> all = new LinkedHashMap<>(values);
        if (!name.isEmpty()) {
            all.put(name, value);
        }
        return all.isEmpty() ? "" : "?" + all.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("&"));
    }

    /** The first example of the operation's JSON body in the document, or null. */
    private JsonNode example(Operation operation) {
        JsonNode content = document.at("/paths/" + escaped(operation.pattern()) + "/"
                + operation.method().toLowerCase(Locale.ROOT) + "/requestBody/content/application~1json");
        JsonNode example = content.has("example") ? content.get("example")
                : content.path("examples").isObject() && !content.get("examples").isEmpty()
                ? content.get("examples").values().iterator().next().get("value") : null;
        if (example != null && example.isString()) {
            example = read(example.asString());
        }
        return example != null && example.isObject() ? example : null;
    }

    private static String escaped(String pattern) {
        return pattern.replace("~", "~0").replace("/", "~1");
    }

    /** {@code schema} with its {@code $ref} followed. */
    private JsonNode resolved(JsonNode schema) {
        JsonNode resolved = schema;
        while (resolved.has("$ref")) {
            resolved = document.at(resolved.get("$ref").asString().substring(1));
        }
        return resolved;
    }

    /** The JSON types {@code schema} takes, null aside: its type or types, of each of its one-of's too. */
    private Set<String> types(JsonNode schema) {
        JsonNode resolved = resolved(schema);
        Set<String> types = new LinkedHashSet<>();
        JsonNode type = resolved.path("type");
        if (type.isString()) {
            types.add(type.asString());
        }
        type.forEach(t -> types.add(t.asString()));
        for (String choice : List.of("oneOf", "anyOf")) {
            resolved.path(choice).forEach(one -> types.addAll(types(one)));
        }
        if (types.isEmpty() && (resolved.has("properties") || resolved.has("additionalProperties"))) {
            types.add("object");
        }
        types.remove("null");
        return types;
    }

    /**
     * A value of none of {@code types}: text where a number, true/false, an object or a list belongs ({@code "16"},
     * {@code "true"}), true where text belongs; null for a field that takes both.
     */
    private JsonNode wrongType(Set<String> types) {
        if (!types.contains("string")) {
            return json.getNodeFactory().stringNode(types.contains("boolean") ? "true" : "16");
        }
        return types.contains("boolean") ? null : json.getNodeFactory().booleanNode(true);
    }

    private JsonNode numberNode(String written) {
        return read(written);
    }

    /** {@code example} as JSON text with {@code name} set to {@code value}. */
    private static String with(JsonNode example, String name, JsonNode value) {
        ObjectNode changed = (ObjectNode) example.deepCopy();
        changed.set(name, value);
        return changed.toString();
    }

    /** Sends {@code body} as JSON (none when null) and checks the answer: 400 naming {@code field}, or not 400. */
    private void refused(Operation operation, String path, String query, String body, String field, boolean must,
            String... headers) throws Exception {
        refusedNamingAny(operation, path, query, body, field == null ? null : Set.of(field), must, headers);
    }

    /** As the above, the 400 naming any of {@code fields}. */
    private void refusedNamingAny(Operation operation, String path, String query, String body, Set<String> fields,
            boolean must, String... headers) throws Exception {
        String what = operation + " as " + path + query + (body == null ? "" : " with " + (body.length() > 120
                ? body.substring(0, 120) + "…" : body)) + (headers.length == 0 ? "" : " " + List.of(headers));
        check(what, send(operation.method(), path + query, body == null ? null : JSON,
                body == null ? null : body.getBytes(StandardCharsets.UTF_8), headers), fields, must);
    }

    /** Sends a body that cannot be read as a whole: a 400 whose error names no field, or the body's. */
    private void refusedBytes(Operation operation, String pathAndQuery, String contentType, byte[] body)
            throws Exception {
        check(operation + " as " + pathAndQuery + " with an unreadable " + contentType + " body",
                send(operation.method(), pathAndQuery, contentType, body), (Set<String>) null, true);
    }

    /**
     * Whether {@code answer} refuses as README says: a 400 problem whose {@code errors[]} holds messages, each said in
     * its {@code detail}, one of them of a field of {@code fields} (null: any or none, the input as a whole); when
     * not {@code must}, an answer other than 400 passes too.
     */
    private void check(String what, Answer answer, Set<String> fields, boolean must) {
        if (answer.status() != 400) {
            if (must) {
                problems.add(what + ": expected 400 naming " + (fields == null ? "the input" : fields) + ", got "
                        + answer);
            }
            if (answer.status() / 100 == 2) {
                undo(answer);
            }
            return;
        }
        if (!answer.contentType().startsWith("application/problem+json")) {
            problems.add(what + ": a 400 that is no problem: " + answer.contentType() + " " + answer);
            return;
        }
        JsonNode problem = read(answer.body());
        JsonNode errors = problem.path("errors");
        if (!errors.isArray() || errors.isEmpty()) {
            problems.add(what + ": no errors[] in " + answer);
            return;
        }
        String detail = problem.path("detail").asString("");
        List<String> named = new ArrayList<>();
        for (JsonNode error : errors) {
            String message = error.path("message").asString("");
            if (message.isBlank() || !detail.contains(message)) {
                problems.add(what + ": an error's message that the detail does not say: " + answer);
            }
            if (error.has("field")) {
                named.add(error.get("field").asString(""));
            }
        }
        if (fields != null && named.stream().noneMatch(fields::contains)) {
            problems.add(what + ": errors[] name " + named + ", not " + fields + ": " + answer);
        }
    }

    /** Cancels an experiment that a request which should have been refused queued, so that it runs no trial. */
    private void undo(Answer answer) {
        Matcher experiment = Pattern.compile("/api/v1/experiments/(\\d+)$").matcher(answer.location());
        if (experiment.find()) {
            try {
                send("POST", "/api/v1/experiments/" + experiment.group(1) + "/cancel", null, null);
            } catch (Exception e) {
                problems.add("cancelling experiment " + experiment.group(1) + ": " + e);
            }
        }
    }

    /**
     * Sends as the bootstrap token (an admin: every operation lets it through), with {@code Accept: *}{@code /*}
     * unless {@code headers} start with another.
     */
    private Answer send(String method, String pathAndQuery, String contentType, byte[] body, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + pathAndQuery))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + ADMIN_TOKEN)
                .header("Accept", headers.length > 0 && headers[0].equals("Accept") ? headers[1] : "*/*");
        for (int i = 0; i < headers.length; i += 2) {
            if (!headers[i].equals("Accept")) {
                request.header(headers[i], headers[i + 1]);
            }
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream answer = response.body()) {
            String type = response.headers().firstValue("Content-Type").orElse("");
            // an event stream that was let through stays open: its status and type are the answer
            String text = type.startsWith("text/event-stream") ? ""
                    : new String(answer.readNBytes(1 << 20), StandardCharsets.UTF_8);
            return new Answer(response.statusCode(), type, response.headers().firstValue("Location").orElse(""),
                    text);
        }
    }

    /** Rows of what the operations create; a refused request must move none of them. */
    private Map<String, Long> counts() {
        Map<String, Long> counts = new LinkedHashMap<>(rowCounts());
        for (String table : List.of("api_token", "agent")) {
            counts.put(table, jdbc.sql("SELECT COUNT(*) FROM " + table).query(Long.class).single());
        }
        return counts;
    }
}
