package io.perflab.system;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.beans.TypeMismatchException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/** How a field's path and a constraint's message are shown to users: as their JSON, in one place. */
public final class FieldMessages {

    private FieldMessages() {
    }

    /**
     * A bound field's path as the JSON spells it: {@code without[completion]} becomes {@code without.completion},
     * {@code withJvmArgs[2]} stays as it is.
     */
    public static String jsonPath(String field) {
        return field.replaceAll("\\[([^\\]0-9][^\\]]*)\\]", ".$1");
    }

    /** A constraint's message with the value that broke it, e.g. {@code must be ≤ 1024, got 2000}. */
    public static String violation(String message, Object rejected) {
        if (rejected == null || rejected instanceof Collection<?> || rejected instanceof Map<?, ?>
                || rejected.toString().length() > 80) {
            return message;
        }
        String value = rejected instanceof CharSequence text
                ? "'" + PrintableText.Validator.shown(text.toString()) + "'" : rejected.toString();
        return message + ", got " + value;
    }

    /** The field a form or query named that its object has no place for, e.g. {@code name[0]}. */
    public static String unknownField(org.springframework.beans.InvalidPropertyException ex) {
        return "The field '" + PrintableText.Validator.quoted(ex.getPropertyName()) + "' is not one this request "
                + "takes (an index or key after a field that holds one value, or a field that does not exist).";
    }

    /**
     * A path or query value that is not of its parameter's type, e.g. {@code id: must be a whole number, got 'abc'}:
     * the parameter and what it holds ({@link #expectedValue}).
     */
    public static String typeMismatch(TypeMismatchException ex) {
        String name = parameter(ex);
        return (name == null ? "" : name + ": ") + expectedValue(ex);
    }

    /** The path variable, query parameter or form field whose value is not of its type, as named; null if unknown. */
    public static String parameter(TypeMismatchException ex) {
        return ex instanceof MethodArgumentTypeMismatchException argument ? argument.getName() : ex.getPropertyName();
    }

    /**
     * What a value that is not of its field's type should have been, with the value, e.g. {@code must be a whole
     * number up to 2147483647, got '99999999999'}: never a Java type.
     */
    public static String expectedValue(TypeMismatchException ex) {
        Class<?> type = ex.getRequiredType();
        String expected = expected(type);
        if (expected == null) {
            expected = "has a value it cannot take";
        } else if (type == int.class || type == Integer.class) {
            expected += " up to " + Integer.MAX_VALUE;
        } else if (type == long.class || type == Long.class) {
            expected += " up to " + Long.MAX_VALUE;
        }
        Object value = ex.getValue();
        // a form field given twice comes as its values, whose toString() is a Java type
        return violation(expected, value instanceof String[] values ? String.join(", ", values)
                : value == null ? null : String.valueOf(value));
    }

    /** What a value of a standard type must look like; null for PerfLab's own types, whose message says it. */
    public static String expected(Class<?> type) {
        if (type == null) {
            return null;
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class
                || type == short.class || type == Short.class) {
            return "must be a whole number";
        }
        if (type == double.class || type == Double.class || type == float.class || type == Float.class
                || type == BigDecimal.class || type == double[].class) {
            return "must be a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "must be true or false";
        }
        if (type == String.class) {
            return "must be text";
        }
        if (java.time.temporal.Temporal.class.isAssignableFrom(type)) {
            return "must be a time in UTC such as 2026-01-01T12:00:00Z";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "must be an array";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord()) {
            return "must be an object";
        }
        if (type.isEnum()) {
            return "must be one of " + Arrays.stream(type.getEnumConstants()).map(String::valueOf)
                    .map(s -> s.toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
        }
        return null;
    }
}
