package io.perflab.system;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ser.BeanPropertyWriter;
import tools.jackson.databind.ser.PropertyWriter;
import tools.jackson.databind.ser.bean.BeanSerializerBase;

/**
 * Which properties of the OpenAPI document's schemas are {@code required}, read from the classes and the service's
 * JSON mapper, so that they cannot drift apart.
 * <ul>
 *   <li>In an answer, each property the mapper writes whatever its value is, null or not ({@link NullableFields}
 *       says where it may be null); one it leaves out when it has no value ({@code @JsonInclude(NON_NULL)}, or
 *       another inclusion that drops values) is optional, and never null where it is written. Every property of
 *       every answer was optional, and a client generated from the document made each an {@code Optional<T>} or a
 *       {@code T | undefined}. An unwrapped part's properties are its own: the records that unwrap one refuse to be
 *       made without it.</li>
 *   <li>In a request body, each property a record reads into a primitive, which the mapper refuses to leave out
 *       ({@code FAIL_ON_NULL_FOR_PRIMITIVES}: {@code "runsCommands: is missing or null"}), beside those its reader
 *       refuses a body without, which the record declares ({@code @NotBlank}, {@code requiredMode}).</li>
 * </ul>
 * As a class is resolved into a schema, the schema's name is noted with the class, and once the document is complete
 * each schema is matched with its class. A schema of an answer that declares its required properties itself (the
 * {@code Problem}, which stands for the answers Spring writes) is left as it is, and so is one that is both read and
 * answered. Two classes of one schema name are refused: the document held one of them for both (an upload's metric
 * was shown with the fields of an experiment's compared metric).
 */
// after NullableFields: see there
@Order(2)
@Component
class RequiredFields implements ModelConverter, OpenApiCustomizer {

    /**
     * The classes resolved under each schema name. Schemas are resolved in several passes (responses, request bodies,
     * each with its own context) whose models are merged by name, so the names are noted across them, as swagger's
     * converters are registered: once for the whole process.
     */
    private static final Map<String, Set<Class<?>>> NAMED = new ConcurrentHashMap<>();

    private static final String COMPONENTS = "#/components/schemas/";

    private final JsonMapper json;

    RequiredFields(JsonMapper json) {
        this.json = json;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Schema resolve(AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
        if (!chain.hasNext()) {
            return null;
        }
        Schema resolved = chain.next().resolve(type, context, chain);
        if (resolved == null || type == null || type.getType() == null) {
            return resolved;
        }
        Class<?> raw = Json.mapper().constructType(type.getType()).getRawClass();
        String name = resolved.get$ref() != null && resolved.get$ref().startsWith(COMPONENTS)
                ? resolved.get$ref().substring(COMPONENTS.length()) : resolved.getName();
        Schema model = resolved.get$ref() == null ? resolved : context.getDefinedModels().get(name);
        if (name != null && model != null && model.getProperties() != null && !Map.class.isAssignableFrom(raw)
                && !Collection.class.isAssignableFrom(raw)) {
            NAMED.computeIfAbsent(name, key -> ConcurrentHashMap.newKeySet()).add(raw);
        }
        return resolved;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public void customise(OpenAPI api) {
        if (api.getComponents() == null || api.getComponents().getSchemas() == null) {
            return;
        }
        Map<String, Schema> schemas = api.getComponents().getSchemas();
        Set<String> answered = new HashSet<>();
        Set<String> read = new HashSet<>();
        if (api.getPaths() != null) {
            api.getPaths().values().forEach(path -> path.readOperations().forEach(operation -> {
                if (operation.getResponses() != null) {
                    operation.getResponses().values().forEach(response -> reach(response.getContent(), schemas,
                            answered));
                }
                if (operation.getRequestBody() != null) {
                    reach(operation.getRequestBody().getContent(), schemas, read);
                }
            }));
        }
        schemas.forEach((name, schema) -> {
            Set<Class<?>> classes = NAMED.getOrDefault(name, Set.of());
            if (classes.size() > 1) {
                throw new IllegalStateException("The API documentation's schema " + name + " stands for "
                        + classes.size() + " classes, " + classes + ": name each with @Schema(name = …)");
            }
            if (classes.size() != 1 || answered.contains(name) && read.contains(name)) {
                return;
            }
            if (answered.contains(name) && schema.getRequired() == null) {
                requireWritten(schema, classes.iterator().next());
            } else if (read.contains(name)) {
                requireRead(schema, classes.iterator().next());
            }
        });
    }

    /** Adds to the required properties of {@code schema} each component of record {@code type} of primitive type. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private void requireRead(Schema schema, Class<?> type) {
        if (!type.isRecord() || schema.getProperties() == null
                || !json.isEnabled(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)) {
            return;
        }
        Set<String> required = new LinkedHashSet<>(schema.getRequired() == null ? List.of() : schema.getRequired());
        for (RecordComponent component : type.getRecordComponents()) {
            JsonProperty renamed = component.getAccessor().getAnnotation(JsonProperty.class);
            String name = renamed != null && !renamed.value().isEmpty() ? renamed.value() : component.getName();
            if (component.getType().isPrimitive() && schema.getProperties().containsKey(name)) {
                required.add(name);
            }
        }
        if (!required.isEmpty()) {
            schema.setRequired(new ArrayList<>(required));
        }
    }

    /** Makes required each property of {@code schema} that {@code type}'s serializer always writes. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private void requireWritten(Schema schema, Class<?> type) {
        Map<String, Boolean> written = written(type);
        if (written == null || schema.getProperties() == null) {
            return;
        }
        List<String> required = new ArrayList<>();
        for (Map.Entry<String, Schema> property : ((Map<String, Schema>) schema.getProperties()).entrySet()) {
            Boolean always = written.get(property.getKey());
            if (Boolean.TRUE.equals(always)) {
                required.add(property.getKey());
            } else if (Boolean.FALSE.equals(always)) {
                property.setValue(withoutNull(property.getValue()));
            }
        }
        if (!required.isEmpty()) {
            schema.setRequired(required);
        }
    }

    /**
     * Each JSON property {@code type} is written with, and whether always ({@code true}) or only when it has a value;
     * null when it is not written as an object of properties.
     */
    Map<String, Boolean> written(Class<?> type) {
        SerializationContext context = json._serializationContext();
        ValueSerializer<Object> serializer = context.findRootValueSerializer(type);
        if (!(serializer instanceof BeanSerializerBase bean)) {
            return null;
        }
        Map<String, Boolean> written = new LinkedHashMap<>();
        collect(context, bean, "", "", written);
        return written;
    }

    private static void collect(SerializationContext context, BeanSerializerBase bean, String prefix, String suffix,
                                Map<String, Boolean> written) {
        for (Iterator<PropertyWriter> properties = bean.properties(); properties.hasNext(); ) {
            PropertyWriter property = properties.next();
            JsonUnwrapped unwrapped = property.getAnnotation(JsonUnwrapped.class);
            if (unwrapped != null && unwrapped.enabled()
                    && context.findRootValueSerializer(property.getType()) instanceof BeanSerializerBase part) {
                collect(context, part, prefix + unwrapped.prefix(), unwrapped.suffix() + suffix, written);
            } else {
                written.put(prefix + property.getName() + suffix,
                        property instanceof BeanPropertyWriter writer && always(writer));
            }
        }
    }

    /** Whether {@code writer} writes its property whatever the value: a null too, or a value that is never null. */
    private static boolean always(BeanPropertyWriter writer) {
        return (!writer.willSuppressNulls() || writer.getType().isPrimitive()) && suppressedValue(writer) == null;
    }

    /** The value besides null that {@code writer} leaves out (empty, or the default), or null if none. */
    private static Object suppressedValue(BeanPropertyWriter writer) {
        return new LeftOut(writer).value();
    }

    /**
     * A copy of a property's writer, made to read the value it leaves out besides null, which the mapper keeps for
     * its writers' subclasses alone: read so, by the compiler's leave, not by reflection into the mapper's fields.
     */
    private static final class LeftOut extends BeanPropertyWriter {

        private static final long serialVersionUID = 1L;

        LeftOut(BeanPropertyWriter writer) {
            super(writer);
        }

        Object value() {
            return _suppressableValue;
        }
    }

    /** {@code property} that is never null: its {@code null} type, or its {@code oneOf} a reference and null, gone. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema withoutNull(Schema property) {
        if (property.getTypes() != null && property.getTypes().contains("null")) {
            // beside a reference, the null type alone
            Set<String> types = new LinkedHashSet<>(property.getTypes());
            types.remove("null");
            property.setTypes(types.isEmpty() ? null : types);
        }
        if (Boolean.TRUE.equals(property.getNullable())) {
            property.setNullable(null);
        }
        List<Schema> oneOf = property.getOneOf();
        if (oneOf != null && oneOf.size() == 2 && property.get$ref() == null) {
            Schema reference = oneOf.stream().filter(s -> s.get$ref() != null).findFirst().orElse(null);
            boolean orNull = oneOf.stream().anyMatch(s -> s.getTypes() != null && s.getTypes().equals(Set.of("null")));
            if (reference != null && orNull) {
                return new Schema().$ref(reference.get$ref()).description(property.getDescription());
            }
        }
        return property;
    }

    /** Adds to {@code reached} each component the schemas of {@code content} refer to, and each those refer to. */
    @SuppressWarnings("rawtypes")
    private static void reach(Content content, Map<String, Schema> components, Set<String> reached) {
        if (content != null) {
            content.values().forEach(media -> reach(media.getSchema(), components, reached));
        }
    }

    /** Adds to {@code reached} each component {@code schema} refers to, and each those refer to. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void reach(Schema schema, Map<String, Schema> components, Set<String> reached) {
        if (schema == null) {
            return;
        }
        if (schema.get$ref() != null && schema.get$ref().startsWith(COMPONENTS)) {
            String name = schema.get$ref().substring(COMPONENTS.length());
            if (reached.add(name)) {
                reach(components.get(name), components, reached);
            }
        }
        if (schema.getProperties() != null) {
            ((Map<String, Schema>) schema.getProperties()).values().forEach(p -> reach(p, components, reached));
        }
        reach(schema.getItems(), components, reached);
        if (schema.getAdditionalProperties() instanceof Schema additional) {
            reach(additional, components, reached);
        }
        reach(schema.getNot(), components, reached);
        for (List<Schema> parts : new List[] {schema.getAllOf(), schema.getAnyOf(), schema.getOneOf()}) {
            if (parts != null) {
                parts.forEach(p -> reach(p, components, reached));
            }
        }
    }
}
