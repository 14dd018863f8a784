package io.perflab.system;

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
        if (rejected == null || rejected instanceof java.util.Collection<?> || rejected instanceof java.util.Map<?, ?>
                || rejected.toString().length() > 80) {
            return message;
        }
        String value = rejected instanceof CharSequence text ? "'" + printable(text.toString()) + "'"
                : rejected.toString();
        return message + ", got " + value;
    }

    private static String printable(String text) {
        StringBuilder shown = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT) {
                shown.append(String.format("\\u%04X", c));
            } else {
                shown.appendCodePoint(c);
            }
        });
        return shown.toString();
    }
}
