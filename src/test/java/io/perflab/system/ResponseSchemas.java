package io.perflab.system;

import com.networknt.schema.Error;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaContext;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.format.Format;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks an API response against what the OpenAPI document says of its operation: its status is documented, its
 * media type is documented for that status, and its JSON body is valid against the schema given for that media type
 * ({@code $ref}s resolved in the document). The schemas are read strictly, as a generated client reads them: an
 * object may hold only the properties its schema names and must hold those it requires, a {@code null} only where
 * the schema allows it (OpenAPI 3.1 type arrays, or 3.0's {@code nullable}), a text of an {@code enum} only one of
 * its values, and a number of format {@code int32} or {@code int64} only a whole number in that range;
 * {@code date-time} and the other formats are asserted.
 */
final class ResponseSchemas {

    /** Where the document is registered, for its {@code $ref}s and the operations' schemas to resolve against. */
    private static final String DOCUMENT = "https://perflab.test/v3/api-docs";

    private final JsonNode document;
    private final SchemaRegistry registry;

    ResponseSchemas(JsonNode document) {
        this.document = document;
        boolean openApi30 = document.path("openapi").asString("").startsWith("3.0");
        JsonNode strict = document.deepCopy();
        forEachSchema(strict, schema -> closed(schema, openApi30));
        Dialect dialect = Dialect.builder(openApi30 ? Dialects.getOpenApi30() : Dialects.getOpenApi31())
                .format(new WholeNumber("int32", Integer.MIN_VALUE, Integer.MAX_VALUE))
                .format(new WholeNumber("int64", Long.MIN_VALUE, Long.MAX_VALUE))
                .build();
        this.registry = SchemaRegistry.withDefaultDialect(dialect, registry -> registry
                .schemas(Map.of(DOCUMENT, strict.toString()))
                .schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
    }

    /**
     * What is wrong with {@code response} as the document describes the answers of its request's operation (the
     * path that matches the request's, one with literal segments before one with a variable there); empty when the
     * document describes it. A body that was not read ({@code null}: an event stream) is judged by its media type.
     */
    List<String> problems(HttpResponse<String> response) {
        String path = response.request().uri().getPath();
        String operation = operationPath(path);
        if (operation == null) {
            return List.of(response.request().method() + " " + path + ": no path of the document matches");
        }
        return problems(response.request().method(), operation, response.statusCode(),
                response.headers().firstValue("Content-Type").orElse(null), response.body());
    }

    /**
     * What is wrong with an answer of {@code status}, {@code contentType} and {@code body} to the operation
     * {@code method} {@code path} (the path as the document names it, {@code /api/v1/experiments/{id}}).
     */
    List<String> problems(String method, String path, int status, String contentType, String body) {
        String operation = method.toUpperCase(Locale.ROOT) + " " + path + " " + status;
        JsonNode responses = document.path("paths").path(path).path(method.toLowerCase(Locale.ROOT))
                .path("responses");
        if (responses.isMissingNode()) {
            return List.of(method.toUpperCase(Locale.ROOT) + " " + path + ": no such operation in the document");
        }
        String code = String.valueOf(status);
        if (!responses.has(code)) {
            return List.of(operation + ": the status is not documented (documented: "
                    + responses.propertyNames() + ")");
        }
        JsonNode content = responses.get(code).path("content");
        if (contentType == null && (body == null || body.isEmpty())) {
            return content.isEmpty() ? List.of()
                    : List.of(operation + ": documented with a body " + content.propertyNames() + ", answered none");
        }
        String mediaType = contentType == null ? "" : contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
        if (!content.has(mediaType)) {
            return List.of(operation + ": answered " + mediaType + ", documented " + content.propertyNames());
        }
        if (body == null || !mediaType.endsWith("json")) {
            return List.of();
        }
        if (!content.get(mediaType).has("schema")) {
            return List.of(operation + " " + mediaType + ": no schema");
        }
        String pointer = "/paths/" + token(path) + "/" + method.toLowerCase(Locale.ROOT) + "/responses/" + code
                + "/content/" + token(mediaType) + "/schema";
        Schema schema = registry.getSchema(SchemaLocation.of(DOCUMENT + "#" + pointer));
        List<String> problems = new ArrayList<>();
        for (Error error : schema.validate(body, InputFormat.JSON)) {
            problems.add(operation + " " + mediaType + ": " + error);
        }
        return problems;
    }

    /** The document's path that {@code path} is of: of those that match it, the one with fewest variables. */
    String operationPath(String path) {
        String[] segments = path.split("/", -1);
        String best = null;
        int fewest = Integer.MAX_VALUE;
        for (String candidate : document.path("paths").propertyNames()) {
            String[] template = candidate.split("/", -1);
            if (template.length != segments.length) {
                continue;
            }
            int variables = 0;
            boolean matches = true;
            for (int i = 0; i < template.length && matches; i++) {
                boolean variable = template[i].startsWith("{") && template[i].endsWith("}");
                variables += variable ? 1 : 0;
                matches = variable ? !segments[i].isEmpty() : template[i].equals(segments[i]);
            }
            if (matches && variables < fewest) {
                best = candidate;
                fewest = variables;
            }
        }
        return best;
    }

    /** A JSON pointer's reference token, escaped (RFC 6901) and then percent-encoded for a URI fragment. */
    private static String token(String name) {
        String escaped = name.replace("~", "~0").replace("/", "~1");
        StringBuilder encoded = new StringBuilder();
        for (byte b : escaped.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if (Character.isLetterOrDigit(c) && c < 0x80 || "-._~".indexOf(c) >= 0) {
                encoded.append(c);
            } else {
                encoded.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xFF));
            }
        }
        return encoded.toString();
    }

    /** Calls {@code action} on each schema of the document's components and responses, nested ones too. */
    private static void forEachSchema(JsonNode document, Consumer<ObjectNode> action) {
        for (JsonNode schema : document.path("components").path("schemas")) {
            walk(schema, action);
        }
        for (JsonNode path : document.path("paths")) {
            for (JsonNode operation : path) {
                for (JsonNode response : operation.path("responses")) {
                    for (JsonNode content : response.path("content")) {
                        walk(content.path("schema"), action);
                    }
                }
            }
        }
    }

    private static void walk(JsonNode schema, Consumer<ObjectNode> action) {
        if (!(schema instanceof ObjectNode object)) {
            return;
        }
        action.accept(object);
        for (JsonNode property : schema.path("properties")) {
            walk(property, action);
        }
        walk(schema.get("items"), action);
        walk(schema.get("additionalProperties"), action);
        walk(schema.get("not"), action);
        for (String composition : List.of("allOf", "anyOf", "oneOf", "prefixItems")) {
            for (JsonNode part : schema.path(composition)) {
                walk(part, action);
            }
        }
    }

    /** An object schema that names its properties holds no others, as a generated client's class has no others. */
    private static void closed(ObjectNode schema, boolean openApi30) {
        if (schema.has("properties") && !schema.has("additionalProperties") && !schema.has("unevaluatedProperties")) {
            schema.put(openApi30 ? "additionalProperties" : "unevaluatedProperties", false);
        }
    }

    /** {@code int32}, {@code int64}: a whole number within the type's range (a generated client's int or long). */
    private record WholeNumber(String name, long min, long max) implements Format {

        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean matches(ExecutionContext executionContext, SchemaContext schemaContext, JsonNode value) {
            if (!value.isNumber()) {
                return true;
            }
            if (!value.isIntegralNumber() || !value.canConvertToLong()) {
                return false;
            }
            return value.asLong() >= min && value.asLong() <= max;
        }
    }
}
