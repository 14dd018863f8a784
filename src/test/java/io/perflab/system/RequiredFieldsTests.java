package io.perflab.system;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY;
import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverterContextImpl;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link RequiredFields} makes required what the JSON mapper always writes in an answer, and what it cannot read a
 * request without, and refuses two classes of one schema name.
 */
class RequiredFieldsTests {

    private final RequiredFields fields = new RequiredFields(JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build());

    /** An answer with a field of each kind. */
    record FieldsAnswer(long id, @io.swagger.v3.oas.annotations.media.Schema(nullable = true) String note,
                        @JsonInclude(NON_NULL) @io.swagger.v3.oas.annotations.media.Schema(nullable = true)
                        String hint,
                        @JsonInclude(NON_NULL) int count, @JsonInclude(NON_EMPTY) List<String> tags,
                        @JsonUnwrapped FieldsPart part,
                        @JsonInclude(NON_NULL) @io.swagger.v3.oas.annotations.media.Schema(nullable = true)
                        FieldsInner inner) {
    }

    record FieldsPart(String partName, @JsonInclude(NON_NULL) String partHint) {
    }

    record FieldsInner(int n) {
    }

    record FieldsRequest(@io.swagger.v3.oas.annotations.media.Schema(
            requiredMode = io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED) String name,
                         int size, Integer limit, boolean all) {
    }

    @io.swagger.v3.oas.annotations.media.Schema(requiredProperties = "title")
    record FieldsDeclared(String title, String detail) {
    }

    static final class First {
        record FieldsClash(int a) {
        }
    }

    static final class Second {
        record FieldsClash(String b) {
        }
    }

    /**
     * What is written whatever its value is required, null or not (a primitive left out when null is never null); a
     * property left out when null or empty, or an unwrapped part's that is, is optional and never null. An answer
     * that says its required properties itself is left as it is. A request requires what it declares, and what the
     * mapper cannot read into a primitive when it is left out.
     */
    @Test
    @SuppressWarnings("rawtypes")
    void requiresWhatAnAnswerAlwaysHasAndARequestCannotGoWithout() {
        ModelConverterContextImpl context = context();
        context.resolve(new AnnotatedType(FieldsAnswer.class).resolveAsRef(true));
        context.resolve(new AnnotatedType(FieldsRequest.class).resolveAsRef(true));
        context.resolve(new AnnotatedType(FieldsDeclared.class).resolveAsRef(true));
        OpenAPI api = document(context.getDefinedModels(), "FieldsRequest", "FieldsAnswer", "FieldsDeclared");
        new NullableFields().customise(api);

        fields.customise(api);

        Map<String, Schema> schemas = api.getComponents().getSchemas();
        Schema answer = schemas.get("FieldsAnswer");
        assertThat(answer.getRequired()).containsExactlyInAnyOrder("id", "note", "count", "partName");
        Map<String, Schema> properties = answer.getProperties();
        assertThat(properties.get("note").getTypes()).contains("null");
        assertThat(properties.get("hint").getTypes()).containsExactly("string");
        assertThat(properties.get("inner").get$ref()).endsWith("/FieldsInner");
        assertThat(properties.get("inner").getOneOf()).isNull();
        assertThat(properties).containsKeys("tags", "partHint");
        assertThat(schemas.get("FieldsInner").getRequired()).containsExactly("n");
        assertThat(schemas.get("FieldsRequest").getRequired()).containsExactlyInAnyOrder("name", "size", "all");
        assertThat(schemas.get("FieldsDeclared").getRequired()).containsExactly("title");
    }

    /** A nullable reference made {@code oneOf} it and null before is a reference again when it is left out instead. */
    @Test
    @SuppressWarnings("rawtypes")
    void aReferenceLeftOutWhenNullIsNeverNullWhicheverCustomizerGoesFirst() {
        ModelConverterContextImpl context = context();
        context.resolve(new AnnotatedType(FieldsAnswer.class).resolveAsRef(true));
        OpenAPI api = document(context.getDefinedModels(), null, "FieldsAnswer");

        fields.customise(api);
        new NullableFields().customise(api);

        Schema inner = (Schema) api.getComponents().getSchemas().get("FieldsAnswer").getProperties().get("inner");
        assertThat(inner.get$ref()).endsWith("/FieldsInner");
        assertThat(inner.getOneOf()).isNull();
    }

    /** Two classes resolved under one name (as a request's and an answer's are, each in a pass) are refused. */
    @Test
    void refusesTwoClassesOfOneSchemaName() {
        ModelConverterContextImpl answers = context();
        answers.resolve(new AnnotatedType(First.FieldsClash.class).resolveAsRef(true));
        ModelConverterContextImpl requests = context();
        requests.resolve(new AnnotatedType(Second.FieldsClash.class).resolveAsRef(true));
        OpenAPI api = document(answers.getDefinedModels(), "FieldsClash", "FieldsClash");

        assertThatThrownBy(() -> fields.customise(api)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("FieldsClash").hasMessageContaining(First.FieldsClash.class.getName())
                .hasMessageContaining(Second.FieldsClash.class.getName());
    }

    /** Which properties the mapper always writes, unwrapped parts' too. */
    @Test
    void tellsWhatTheMapperAlwaysWrites() {
        assertThat(fields.written(FieldsAnswer.class)).containsExactlyInAnyOrderEntriesOf(Map.of("id", true,
                "note", true, "hint", false, "count", true, "tags", false, "partName", true, "partHint", false,
                "inner", false));
        assertThat(fields.written(String.class)).isNull();
    }

    private ModelConverterContextImpl context() {
        ModelConverters converters = new ModelConverters(true);
        converters.addConverter(fields);
        return new ModelConverterContextImpl(converters.getConverters());
    }

    /** A document of {@code schemas} whose one operation reads {@code request} and answers each of {@code answers}. */
    @SuppressWarnings("rawtypes")
    private static OpenAPI document(Map<String, Schema> schemas, String request, String... answers) {
        ApiResponses responses = new ApiResponses();
        for (int i = 0; i < answers.length; i++) {
            responses.addApiResponse(String.valueOf(200 + i), new ApiResponse().content(json(answers[i])));
        }
        Operation operation = new Operation().responses(responses);
        if (request != null) {
            operation.requestBody(new RequestBody().content(json(request)));
        }
        return new OpenAPI(SpecVersion.V31).components(new Components().schemas(new TreeMap<>(schemas)))
                .path("/fields", new PathItem().post(operation));
    }

    private static Content json(String schema) {
        return new Content().addMediaType("application/json",
                new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + schema)));
    }
}
