package io.perflab.system;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The errors of the API's operations in the OpenAPI document, each an {@code application/problem+json}
 * {@link Problem}. Every {@code /api} operation may answer 400 (a query parameter it does not take, a path number
 * that is no number, and for one with a body, a body it refuses) and 401 (a bearer token the server does not know,
 * or none where one is needed); those that need a role (see {@code SecurityConfig}: every write but the analysis,
 * and the tokens API; every operation where {@code perflab.security.anonymous-reads} is false, since an agent's token
 * reads nothing there) 403; those of a path variable 404; those that read a body 413 and 415; those whose mapping
 * says what they answer ({@code produces}) 406, for an {@code Accept} that takes none of it, refused before the
 * handler runs. The statuses of one operation alone (409, 429, and the 406 of one that reads {@code Accept} itself)
 * are declared on it and given the problem here, as is any error response declared without a body.
 */
@Component
class ApiErrorDocumentation implements OpenApiCustomizer {

    private static final String PROBLEM_JSON = org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE;

    /**
     * An error as the API answers it (RFC 9457).
     *
     * @param errors of a 400 for input the request wrote, each problem with the field at fault
     */
    @Schema(name = "Problem", description = "An error (RFC 9457): detail says what was wrong, in the caller's terms",
            requiredProperties = {"title", "status", "detail"})
    record Problem(@Schema(description = "about:blank, or left out") String type,
                   @Schema(description = "the status's reason phrase, e.g. Bad Request") String title,
                   int status,
                   @Schema(description = "what was wrong, naming the field or parameter at fault") String detail,
                   @Schema(description = "the request's path") String instance,
                   @Schema(description = "a 400 for input the request wrote: each problem, in the order of its field")
                   List<FieldProblem> errors) {
    }

    /** One problem of a refused input. */
    @Schema(name = "FieldProblem", requiredProperties = "message")
    record FieldProblem(@Schema(description = "the field as the request wrote it (workload.clientThreads, "
                                + "metrics.parse.values[3], Idempotency-Key), each character that is not printable "
                                + "written as its escape (\\u001B), cut with … past " + ProblemErrors.FIELD_MAX
                                + " characters; left out for the input as a whole",
                                maxLength = ProblemErrors.FIELD_MAX)
                        String field,
                        @Schema(description = "what is wrong with it") String message) {
    }

    private static final Map<String, String> COMMON = Map.of(
            "400", "Refused: a parameter the operation does not take or cannot read, or a body it refuses; detail "
                    + "says what, and errors, where given, name each field at fault",
            "401", "A bearer token the server does not know (or one revoked), or none where the operation needs one",
            "403", "The credentials do not allow this: detail says who may",
            "404", "Nothing of that id (or name): detail says which",
            "413", "The request body is larger than the server takes (16 MiB)",
            "415", "A body of a media type (or Content-Encoding) the operation does not read");

    /** Whether reads and the analysis are open to anyone ({@code perflab.security.anonymous-reads}). */
    private final boolean anonymousReads;

    private final ObjectProvider<RequestMappingHandlerMapping> mappings;

    ApiErrorDocumentation(PerfLabProperties properties, @Qualifier("requestMappingHandlerMapping")
                          ObjectProvider<RequestMappingHandlerMapping> mappings) {
        this.anonymousReads = properties.security().anonymousReads();
        this.mappings = mappings;
    }

    @Override
    public void customise(OpenAPI api) {
        boolean openApi31 = api.getSpecVersion() == SpecVersion.V31;
        ModelConverters.getInstance(openApi31).readAll(new AnnotatedType(Problem.class))
                .forEach(api.getComponents()::addSchemas);
        if (api.getPaths() == null) {
            return;
        }
        Map<String, Set<String>> produced = produced();
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            if (path.startsWith("/api/")) {
                document(path, method, operation, anonymousReads, produced.get(method.name() + " " + path));
            }
        }));
    }

    /**
     * What each operation's mappings say they produce, by method and path ({@code GET /api/v1/experiments}): the
     * media types of all of them, or null when one of them says none (its handler answers whatever it answers).
     */
    private Map<String, Set<String>> produced() {
        Map<String, Set<String>> produced = new HashMap<>();
        RequestMappingHandlerMapping handlers = mappings.getIfAvailable();
        if (handlers == null) {
            return produced;
        }
        Set<String> open = new HashSet<>();
        handlers.getHandlerMethods().keySet().forEach(info -> info.getPatternValues().forEach(pattern ->
                info.getMethodsCondition().getMethods().forEach(method -> {
                    String operation = method.name() + " " + pattern;
                    Set<org.springframework.http.MediaType> types = info.getProducesCondition()
                            .getProducibleMediaTypes();
                    if (types.isEmpty()) {
                        open.add(operation);
                    }
                    Set<String> all = produced.computeIfAbsent(operation, key -> new TreeSet<>());
                    types.forEach(type -> all.add(type.toString()));
                })));
        open.forEach(produced::remove);
        return produced;
    }

    private static void document(String path, PathItem.HttpMethod method, Operation operation,
            boolean anonymousReads, Set<String> produced) {
        ApiResponses responses = operation.getResponses();
        add(responses, "400");
        add(responses, "401");
        boolean open = anonymousReads && (method == PathItem.HttpMethod.GET || method == PathItem.HttpMethod.HEAD
                || path.equals("/api/v1/analyze"));
        if (!open || path.startsWith("/api/v1/tokens")) {
            add(responses, "403");
        }
        if (operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(p -> "path".equals(p.getIn()))) {
            add(responses, "404");
        }
        if (operation.getRequestBody() != null) {
            add(responses, "413");
            add(responses, "415");
        }
        if (produced != null && !responses.containsKey("406")) {
            responses.addApiResponse("406", new ApiResponse().description("The Accept header takes none of what "
                    + "this answers (" + String.join(", ", produced) + "): refused before anything is done"));
        }
        responses.forEach((code, response) -> {
            if (code.startsWith("4") || code.startsWith("5")) {
                response.setContent(new Content().addMediaType(PROBLEM_JSON, new MediaType().schema(
                        new io.swagger.v3.oas.models.media.Schema<>().$ref("#/components/schemas/Problem"))));
            }
        });
        // in the order of their statuses, as a reader looks them up
        Map<String, ApiResponse> sorted = new TreeMap<>(responses);
        responses.clear();
        sorted.forEach(responses::addApiResponse);
    }

    private static void add(ApiResponses responses, String code) {
        if (!responses.containsKey(code)) {
            responses.addApiResponse(code, new ApiResponse().description(COMMON.get(code)));
        }
    }
}
