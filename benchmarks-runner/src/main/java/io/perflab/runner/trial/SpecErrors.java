package io.perflab.runner.trial;

import io.perflab.runner.rpcbench.InvalidSettingException;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidNullException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Why a trial spec's JSON could not be read, as {@code field: what it must be} ({@code workload.clientThreads: must
 * be a whole number}), never a Java type or Jackson's words. The runner's own reading of what the service's
 * request bodies say more of.
 */
final class SpecErrors {

    private SpecErrors() {
    }

    /** {@code e}, thrown reading a spec, said as one line naming the field. */
    static String describe(JacksonException e) {
        String path = path(e);
        if (e instanceof StreamReadException read && !(e instanceof InputCoercionException)) {
            return "spec: is not valid JSON" + location(read.getLocation());
        }
        IllegalArgumentException bad = cause(e, IllegalArgumentException.class);
        if (bad instanceof InvalidSettingException setting) {
            // the workload names its own field, clientThreads within workload
            return path.endsWith(setting.field()) ? path + ": " + setting.problem()
                    : (path.isEmpty() ? "" : path + ".") + setting.getMessage();
        }
        String field = path.isEmpty() ? "spec" : path;
        if (bad != null) {
            return field + ": " + bad.getMessage();
        }
        if (e instanceof UnrecognizedPropertyException unknown) {
            Collection<Object> known = unknown.getKnownPropertyIds();
            return field + ": unknown field" + (known == null || known.isEmpty() ? "" : "; allowed: "
                    + known.stream().map(String::valueOf).sorted().collect(Collectors.joining(", ")));
        }
        if (e instanceof InputCoercionException) {
            return field + ": is out of range";
        }
        if (e instanceof InvalidNullException) {
            return field + ": must not be null";
        }
        if (e instanceof MismatchedInputException mismatch) {
            Class<?> target = mismatch.getTargetType();
            String original = String.valueOf(mismatch.getOriginalMessage());
            // PerfLab's own readers (a duration's) say what they take; Jackson's words quote Java names in backticks
            boolean ours = original.startsWith("must ") || target != null
                    && target.getName().startsWith("io.perflab.") && !original.startsWith("Cannot ");
            if (ours && original.indexOf('`') < 0) {
                return field + ": " + original;
            }
            // a primitive left out reads as null
            boolean missing = target != null && target.isPrimitive()
                    && original.contains("`null`");
            return field + (missing ? ": is missing or null: it " : ": ") + expected(target);
        }
        return field + ": is not of the kind of value this field takes";
    }

    private static String expected(Class<?> type) {
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "must be a whole number";
        }
        if (type == double.class || type == Double.class) {
            return "must be a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "must be true or false";
        }
        if (type == String.class) {
            return "must be text";
        }
        if (type != null && (Map.class.isAssignableFrom(type) || type.isRecord()
                || type.getName().startsWith("io.perflab.rpc."))) {
            return "must be an object";
        }
        return "is not of the kind of value this field takes";
    }

    /** {@code workload.clientThreads}. */
    private static String path(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String location(TokenStreamLocation location) {
        return location != null && location.getLineNr() > 0
                ? " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")" : "";
    }

    private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        T found = null;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                found = type.cast(t);
            }
        }
        return found;
    }
}
