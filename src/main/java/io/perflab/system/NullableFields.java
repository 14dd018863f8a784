package io.perflab.system;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.PropertyCustomizer;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Which fields of the OpenAPI document's schemas may be {@code null}, as a generated client must know. A figure of a
 * boxed type ({@code Double}, {@code Long}, {@code Integer}, {@code Boolean}) is one that may be missing: the API's
 * records hold a figure that always exists as a primitive, and one that may not (an unbounded interval end, a
 * statistic that could not be computed, a budget that is unlimited) boxed, null when missing. Other fields say it
 * with {@code @Schema(nullable = true)}; one that is left out instead ({@code @JsonInclude(NON_NULL)}) needs nothing.
 * A nullable object is written as {@code oneOf} its schema and {@code null}: beside a {@code $ref}, OpenAPI 3.1's
 * {@code "type": "null"} said the value is always null. A list's items and a map's values are boxed because Java's
 * generics are, not because they may be missing: the API writes no null among them and refuses one, so they are not
 * nullable (a trial's {@code metrics} and a paired figure's {@code pairPercents} said they could be).
 */
// before RequiredFields, which takes null back out of what the API leaves out rather than writes as null
@Order(1)
@Component
class NullableFields implements PropertyCustomizer, OpenApiCustomizer {

    private static final Set<Class<?>> BOXED_FIGURES = Set.of(Double.class, Float.class, Long.class, Integer.class,
            Short.class, Boolean.class);

    @Override
    public Schema customize(Schema property, AnnotatedType type) {
        if (type != null && type.getType() != null
                && BOXED_FIGURES.contains(Json.mapper().constructType(type.getType()).getRawClass())) {
            if (property.getTypes() != null) {
                property.addType("null");
            } else {
                property.setNullable(true);
            }
        }
        return property;
    }

    @Override
    public void customise(OpenAPI api) {
        if (api.getComponents() == null || api.getComponents().getSchemas() == null) {
            return;
        }
        for (Schema<?> schema : api.getComponents().getSchemas().values()) {
            if (schema.getProperties() != null) {
                for (Map.Entry<String, Schema> property : schema.getProperties().entrySet()) {
                    property.setValue(nullableReference(property.getValue()));
                    notNull(property.getValue().getItems());
                    if (property.getValue().getAdditionalProperties() instanceof Schema<?> values) {
                        notNull(values);
                    }
                }
            }
        }
    }

    /** {@code schema} that is never null, if it is a figure said to be nullable. */
    private static void notNull(Schema<?> schema) {
        if (schema == null) {
            return;
        }
        if (schema.getTypes() != null && schema.getTypes().contains("null") && schema.getTypes().size() > 1) {
            Set<String> types = new LinkedHashSet<>(schema.getTypes());
            types.remove("null");
            schema.setTypes(types);
        }
        if (Boolean.TRUE.equals(schema.getNullable())) {
            schema.setNullable(null);
        }
    }

    /** {@code $ref} and {@code null} as {@code oneOf} the two, the description kept beside them. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema nullableReference(Schema property) {
        boolean nullable = Boolean.TRUE.equals(property.getNullable())
                || property.getTypes() != null && property.getTypes().contains("null");
        if (property.get$ref() == null || !nullable) {
            return property;
        }
        boolean openApi31 = property.getTypes() != null;
        Schema reference = new Schema().$ref(property.get$ref());
        if (!openApi31) {
            return new Schema().nullable(true).allOf(new ArrayList<>(List.of(reference)))
                    .description(property.getDescription());
        }
        return new Schema().oneOf(new ArrayList<>(List.of(reference, new Schema().types(Set.of("null")))))
                .description(property.getDescription());
    }
}
