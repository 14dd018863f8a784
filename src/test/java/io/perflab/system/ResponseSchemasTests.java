package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** {@link ResponseSchemas} says each way an answer differs from what its OpenAPI document describes. */
class ResponseSchemasTests {

    private static final String JSON = "application/json";

    private final JsonMapper json = JsonMapper.builder().build();

    /** Each kind of answer its document does not describe is said, naming where it is. */
    @Test
    void catchesAnAnswerItsDocumentDoesNotDescribe() {
        ResponseSchemas check = new ResponseSchemas(json.readTree("""
                {"openapi": "3.1.0", "paths": {"/things/{id}": {"get": {"responses": {
                  "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
                  "204": {"description": "none"}}}}},
                 "components": {"schemas": {"Thing": {"type": "object", "properties": {
                   "id": {"type": "integer", "format": "int32"}, "at": {"type": "string", "format": "date-time"},
                   "note": {"type": ["string", "null"]}, "size": {"type": "string"},
                   "part": {"oneOf": [{"$ref": "#/components/schemas/Part"}, {"type": "null"}]}}},
                   "Part": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}"""));
        String path = "/things/{id}";

        assertThat(check.problems("GET", path, 200, JSON, "{\"id\": 1, \"at\": \"2026-01-01T00:00:00Z\", "
                + "\"note\": null, \"part\": null}")).isEmpty();
        assertThat(check.problems("GET", path, 200, JSON, "{\"part\": {\"n\": 2}}")).isEmpty();
        assertThat(check.problems("GET", path, 204, null, "")).isEmpty();
        assertThat(check.operationPath("/things/7")).isEqualTo(path);

        assertThat(check.problems("GET", path, 200, JSON, "{\"id\": 1, \"colour\": \"red\"}").toString())
                .contains("colour");
        assertThat(check.problems("GET", path, 200, JSON, "{\"part\": {\"n\": 2, \"m\": 3}}").toString())
                .contains("/part", "m");
        assertThat(check.problems("GET", path, 200, JSON, "{\"id\": \"1\"}").toString()).contains("/id");
        assertThat(check.problems("GET", path, 200, JSON, "{\"id\": 3000000000}").toString()).contains("int32");
        assertThat(check.problems("GET", path, 200, JSON, "{\"size\": null}").toString()).contains("/size");
        assertThat(check.problems("GET", path, 200, JSON, "{\"at\": \"yesterday\"}").toString())
                .contains("date-time");
        assertThat(check.problems("GET", path, 404, "application/problem+json", "{\"status\": 404}"))
                .singleElement().asString().contains("404", "not documented");
        assertThat(check.problems("GET", path, 200, "text/plain", "1")).singleElement().asString()
                .contains("answered text/plain");
        assertThat(check.problems("GET", path, 200, null, "")).singleElement().asString()
                .contains("answered none");
    }

    /**
     * A property the schema requires must be there, null where it may be null, and a value of a fixed set must be one
     * of it: a client generated from the document reads an absent one as an error, and has no constant for another.
     */
    @Test
    void catchesAMissingRequiredPropertyAndAValueOutsideItsEnum() {
        ResponseSchemas check = new ResponseSchemas(json.readTree("""
                {"openapi": "3.1.0", "paths": {"/things": {"get": {"responses": {
                  "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}}},
                 "components": {"schemas": {"Thing": {"type": "object", "required": ["id", "status", "note"],
                   "properties": {"id": {"type": "integer", "format": "int64"},
                     "status": {"type": "string", "enum": ["QUEUED", "RUNNING"]},
                     "note": {"type": ["string", "null"]}, "hint": {"type": "string"}}}}}}"""));

        assertThat(check.problems("GET", "/things", 200, JSON,
                "{\"id\": 1, \"status\": \"QUEUED\", \"note\": null}")).isEmpty();
        assertThat(check.problems("GET", "/things", 200, JSON,
                "{\"id\": 1, \"status\": \"RUNNING\", \"note\": \"n\", \"hint\": \"h\"}")).isEmpty();

        assertThat(check.problems("GET", "/things", 200, JSON, "{\"id\": 1, \"note\": null}")).singleElement()
                .asString().contains("required", "status");
        assertThat(check.problems("GET", "/things", 200, JSON, "{\"id\": 1, \"status\": \"QUEUED\"}"))
                .singleElement().asString().contains("required", "note");
        assertThat(check.problems("GET", "/things", 200, JSON,
                "{\"id\": 1, \"status\": \"DONE\", \"note\": null}")).singleElement().asString()
                .contains("/status", "enum");
    }

    /** A document of OpenAPI 3.0 says a field may be null with {@code nullable}, and is read as strictly. */
    @Test
    void readsOpenApi30sNullable() {
        ResponseSchemas check = new ResponseSchemas(json.readTree("""
                {"openapi": "3.0.1", "paths": {"/things": {"get": {"responses": {
                  "200": {"content": {"application/json": {"schema": {"type": "object", "properties": {
                    "note": {"type": "string", "nullable": true}, "size": {"type": "string"}}}}}}}}}}}"""));

        assertThat(check.problems("GET", "/things", 200, JSON, "{\"note\": null, \"size\": \"s\"}")).isEmpty();
        assertThat(check.problems("GET", "/things", 200, JSON, "{\"size\": null}").toString()).contains("/size");
        assertThat(check.problems("GET", "/things", 200, JSON, "{\"colour\": \"red\"}").toString())
                .contains("colour");
    }
}
