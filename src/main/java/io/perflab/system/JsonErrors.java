package io.perflab.system;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidNullException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.exc.ValueInstantiationException;

/**
 * Says why JSON — a request body, an experiment file — could not be read, in the user's terms: the field at fault
 * (e.g. {@code workload.clientThreads}, {@code with[2]}) and what it may hold, never a Java type name or a
 * parser's internals.
 */
public final class JsonErrors {

    private static final String MISSING_BODY = "Required request body is missing";

    private JsonErrors() {
    }

    /** {@code ex} as one field problem. */
    public static InvalidInputException.FieldProblem problem(Throwable ex) {
        JacksonException json = innermost(ex, JacksonException.class);
        if (json == null) {
            String cause = firstLine(String.valueOf(rootCause(ex).getMessage()));
            // Spring's words for an empty body or a JSON null go on to name the handler method's signature
            if (cause.startsWith(MISSING_BODY)) {
                return new InvalidInputException.FieldProblem(null,
                        "the request body is empty or null; it must be a JSON object");
            }
            return new InvalidInputException.FieldProblem(null, "the request body cannot be read: " + cause);
        }
        String path = path(json.getPath());
        return new InvalidInputException.FieldProblem(path.isEmpty() ? null : path, message(json));
    }

    /** {@link #problem} as one line. */
    public static String describe(Throwable ex) {
        return problem(ex).toString();
    }

    private static String message(JacksonException json) {
        if (json instanceof UnrecognizedPropertyException unknown) {
            Collection<Object> known = unknown.getKnownPropertyIds();
            return "unknown field" + (known == null || known.isEmpty() ? "" : "; allowed: " + known.stream()
                    .map(String::valueOf).sorted().collect(Collectors.joining(", ")));
        }
        if (json instanceof StreamConstraintsException limit) {
            String original = String.valueOf(limit.getOriginalMessage());
            if (original.startsWith("Number value length")) {
                return "a number is written with more digits than " + StreamReadConstraints.DEFAULT_MAX_NUM_LEN
                        + ": no measurement needs them";
            }
            if (original.startsWith("String value length") || original.startsWith("Name length")) {
                return "a text or a key is longer than the server reads";
            }
            return "the body is too large or too deeply nested to read";
        }
        if (json instanceof InputCoercionException coercion) {
            return "is out of range" + bounds(json.getPath()).orElse(target(coercion.getTargetType()));
        }
        if (json instanceof InvalidNullException) {
            return "must not be null";
        }
        if (json instanceof ValueInstantiationException && rootCause(json) instanceof IllegalArgumentException bad) {
            return firstLine(bad.getMessage());
        }
        if (json instanceof MismatchedInputException mismatch) {
            Class<?> target = mismatch.getTargetType();
            String original = firstLine(mismatch.getOriginalMessage());
            // Jackson's words name the token and the Java type the body was bound to
            if (original.startsWith("Trailing token")) {
                return "more follows the end of the JSON value" + JsonSyntax.where(mismatch.getLocation())
                        + ": send one JSON value, nothing after it";
            }
            // a message of PerfLab's own types says what they take; Jackson's quote Java names in backticks
            // ("Input mismatch reading Enum `io.perflab.runner.rpcbench.CallMode`" for a list where text belongs)
            boolean ours = target != null && target.getName().startsWith("io.perflab.")
                    && !original.startsWith("Cannot ") && original.indexOf('`') < 0;
            String expected = ours ? null : FieldMessages.expected(target);
            if (expected != null && target.isPrimitive() && original.contains("`null`")) {
                return "is missing or null: it " + expected;
            }
            return expected != null ? expected : original.indexOf('`') < 0 ? original
                    : "is not of the kind of value this field takes";
        }
        if (json instanceof StreamReadException read) {
            String message = firstLine(read.getOriginalMessage());
            if (message.startsWith("Duplicate Object property")) {
                return "a key appears twice in one object: " + message.substring(message.indexOf('"'));
            }
            // what is wrong where it can be told ("a text holds the control character U+0000"), as an upload's
            // file says it; else where only
            String where = JsonSyntax.where(read.getLocation());
            return JsonSyntax.fault(message, where).map(fault -> "the body is not valid JSON: "
                    + PrintableText.Validator.shown(fault))
                    .orElse("the body is not valid JSON" + where);
        }
        return firstLine(json.getOriginalMessage());
    }

    /**
     * The bounds of the field at the end of {@code path}, from its {@code @Min} and {@code @Max}: ": a whole number
     * from 2 to 1000 is allowed" (a runsPerVariant far beyond an int was told of 2147483647, not of 1000).
     */
    private static java.util.Optional<String> bounds(List<JacksonException.Reference> path) {
        if (path.isEmpty() || !(path.get(path.size() - 1).from() instanceof Class<?> type) || !type.isRecord()) {
            return java.util.Optional.empty();
        }
        String name = path.get(path.size() - 1).getPropertyName();
        // a record component's constraints are kept on its field
        java.lang.reflect.Field field;
        try {
            field = type.getDeclaredField(String.valueOf(name));
        } catch (NoSuchFieldException e) {
            return java.util.Optional.empty();
        }
        Min min = field.getAnnotation(Min.class);
        Max max = field.getAnnotation(Max.class);
        if (min != null && max != null) {
            return java.util.Optional.of(": a whole number from " + min.value() + " to " + max.value()
                    + " is allowed");
        }
        return java.util.Optional.empty();
    }

    private static String target(Class<?> type) {
        return type == int.class || type == Integer.class ? ": a whole number up to 2147483647 is allowed" : "";
    }

    /** {@code workload.clientThreads}, {@code with[2]}. */
    static String path(List<JacksonException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : references) {
            if (reference.getPropertyName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static <T extends Throwable> T innermost(Throwable ex, Class<T> type) {
        T found = null;
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                found = type.cast(t);
            }
        }
        return found;
    }

    private static Throwable rootCause(Throwable ex) {
        Throwable cause = ex;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
