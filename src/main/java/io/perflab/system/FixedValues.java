package io.perflab.system;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.springdoc.core.customizers.PropertyCustomizer;
import org.springframework.stereotype.Component;

/**
 * The OpenAPI document's {@code enum} of each field that says its values with {@link ApiValues}: the values of its
 * enum's constants, as the field writes them. A client generated from the document then has a type for an
 * experiment's status, a metric's verdict, a token's role, where it had a string that could hold anything.
 */
@Component
class FixedValues implements PropertyCustomizer {

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Schema customize(Schema property, AnnotatedType type) {
        ApiValues values = type == null || type.getCtxAnnotations() == null ? null
                : Arrays.stream(type.getCtxAnnotations()).filter(ApiValues.class::isInstance)
                        .map(ApiValues.class::cast).findFirst().orElse(null);
        if (values != null && property != null) {
            property.setEnum(new ArrayList<>(values(values)));
        }
        return property;
    }

    /**
     * The values a field of {@code values} holds, in the order of the enum's constants, then its other values.
     *
     * @throws IllegalStateException when it names a constant the enum does not have, or a method a constant does not
     *     answer, saying which
     */
    static List<String> values(ApiValues values) {
        Enum<?>[] constants = (Enum<?>[]) values.value().getEnumConstants();
        Set<String> names = Arrays.stream(constants).map(Enum::name).collect(Collectors.toSet());
        for (String only : values.only()) {
            if (!names.contains(only)) {
                throw new IllegalStateException(values.value().getName() + " has no constant " + only + " (of "
                        + names + ")");
            }
        }
        List<String> written = new ArrayList<>();
        for (Enum<?> constant : constants) {
            if (values.only().length == 0 || Arrays.asList(values.only()).contains(constant.name())) {
                String text = text(constant, values.written());
                written.add(values.lowerCase() ? text.toLowerCase(Locale.ROOT) : text);
            }
        }
        written.addAll(List.of(values.also()));
        return written;
    }

    private static String text(Enum<?> constant, String method) {
        if (method.equals("name")) {
            return constant.name();
        }
        try {
            Method written = constant.getDeclaringClass().getMethod(method);
            return String.valueOf(written.invoke(constant));
        } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(constant.getDeclaringClass().getName() + "." + constant.name()
                    + " does not answer " + method + "(): " + e, e);
        }
    }
}
