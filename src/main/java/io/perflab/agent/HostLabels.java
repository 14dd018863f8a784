package io.perflab.agent;

import static io.perflab.system.PrintableText.Validator.quoted;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The labels of a benchmark host ({@code arch=x86_64,kernel=6.8}) or those an experiment asks its hosts to carry. An
 * experiment's labels match an agent when the agent carries every one of them with the same value.
 *
 * <p>Keys are 1 to {@value #MAX_KEY} letters, digits, {@code . _ -}; values 1 to {@value #MAX_VALUE} letters,
 * digits, {@code . _ - + : /}; at most {@value #MAX_LABELS} labels. The canonical text sorts them by key, so that
 * two equal sets are equal strings in the database.
 *
 * @param labels key → value, sorted by key
 */
public record HostLabels(Map<String, String> labels) {

    public static final int MAX_LABELS = 16;
    public static final int MAX_KEY = 40;
    public static final int MAX_VALUE = 100;

    /** No labels: an experiment that runs on any host, or a host that carries none. */
    public static final HostLabels NONE = new HostLabels(Map.of());

    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_KEY + "}");
    private static final Pattern VALUE = Pattern.compile("[A-Za-z0-9._+:/-]{1," + MAX_VALUE + "}");

    public HostLabels {
        labels = Collections.unmodifiableMap(new TreeMap<>(labels));
    }

    /**
     * Parses {@code k=v,k=v} (spaces around items ignored; empty or null text: no labels).
     *
     * @throws IllegalArgumentException saying which label is wrong and what a label looks like
     */
    public static HostLabels parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        Map<String, String> labels = new TreeMap<>();
        for (String item : text.split(",", -1)) {
            String label = item.strip();
            int equals = label.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException("'" + quoted(label) + "' is not a label; write key=value, "
                        + "several separated by commas (e.g. arch=x86_64,kernel=6.8)");
            }
            put(labels, label.substring(0, equals).strip(), label.substring(equals + 1).strip());
        }
        return new HostLabels(labels);
    }

    /**
     * Checks labels given as a map (the JSON form).
     *
     * @throws IllegalArgumentException as {@link #parse}
     */
    public static HostLabels of(Map<String, String> given) {
        if (given == null || given.isEmpty()) {
            return NONE;
        }
        Map<String, String> labels = new TreeMap<>();
        given.forEach((key, value) -> {
            if (value == null) {
                // said as "value ''", which reads as an empty text given
                throw new IllegalArgumentException("label " + quoted(String.valueOf(key)) + ": value is null; it "
                        + "must be 1 to " + MAX_VALUE + " letters, digits, '.', '_', '-', '+', ':' or '/'");
            }
            put(labels, key == null ? "" : key, value);
        });
        return new HostLabels(labels);
    }

    private static void put(Map<String, String> labels, String key, String value) {
        if (!KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("label key '" + quoted(key) + "': 1 to " + MAX_KEY
                    + " letters, digits, '.', '_' or '-'");
        }
        if (!VALUE.matcher(value).matches()) {
            throw new IllegalArgumentException("label " + key + ": value '" + quoted(value) + "' must be 1 to "
                    + MAX_VALUE + " letters, digits, '.', '_', '-', '+', ':' or '/'");
        }
        if (labels.put(key, value) != null) {
            throw new IllegalArgumentException("label " + key + " is given twice");
        }
        if (labels.size() > MAX_LABELS) {
            throw new IllegalArgumentException("at most " + MAX_LABELS + " labels");
        }
    }

    /** {@code k=v,k=v} sorted by key; empty for no labels. */
    public String canonical() {
        return labels.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    /** Whether a host with these labels carries every one of {@code required}. */
    public boolean satisfies(HostLabels required) {
        return labels.entrySet().containsAll(required.labels().entrySet());
    }

    /** Whether one host could carry these labels and {@code other}'s: no key has a different value in each. */
    public boolean compatibleWith(HostLabels other) {
        return labels.entrySet().stream().allMatch(label -> {
            String value = other.labels().get(label.getKey());
            return value == null || value.equals(label.getValue());
        });
    }

    public boolean isEmpty() {
        return labels.isEmpty();
    }

    @Override
    public String toString() {
        return canonical();
    }
}
