package io.perflab.experiment;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The four engine changes PerfLab was made to judge, each a ready-made pair of variants. A preset fills the
 * variants (and, where the change only shows under a particular load, the payload); the user can still edit
 * runs, order and durations.
 */
public enum ExperimentPreset {

    SYNC_COMPLETION("sync-completion",
            "Sync call completion: one atomic state word whose waiter sleeps in futex(2), as Kudu's Notification, vs"
                    + " a mutex and condition variable latch, as the pthread one it replaced (seed 003; Linux).",
            Map.of("completion", "condvar"), Map.of("completion", "futex"), 0, 0),

    CALL_BUFFER_4K("call-buffer-4k",
            "Per-call buffer starting at 4 KiB instead of 256 B, measured with 2 KiB responses (seed 002).",
            Map.of("callBufferInitialBytes", "256"), Map.of("callBufferInitialBytes", "4096"), 0, 2048),

    POOLED_BUFFERS("pooled-buffers",
            "Netty's pooled allocator with thread caches vs fresh buffers freed cross-thread (seeds 000, 001).",
            Map.of("allocator", "unpooled"), Map.of("allocator", "pooled"), 0, 0),

    RECYCLED_CALL_OBJECTS("recycled-call-objects",
            "Per-call objects from a per-connection pool vs new per call (seeds 000, 004).",
            Map.of("callObjects", "fresh"), Map.of("callObjects", "recycled"), 0, 0);

    private final String id;
    private final String explanation;
    private final Map<String, String> without;
    private final Map<String, String> with;
    private final int requestBytes;
    private final int responseBytes;

    ExperimentPreset(String id, String explanation, Map<String, String> without, Map<String, String> with,
            int requestBytes, int responseBytes) {
        this.id = id;
        this.explanation = explanation;
        this.without = without;
        this.with = with;
        this.requestBytes = requestBytes;
        this.responseBytes = responseBytes;
    }

    /** The name used in the API and the form, e.g. {@code sync-completion}. */
    public String id() {
        return id;
    }

    /** One line for the form: what changes and which seed it comes from. */
    public String explanation() {
        return explanation;
    }

    /** Engine options of the baseline. */
    public Map<String, String> without() {
        return without;
    }

    /** Engine options of the change. */
    public Map<String, String> with() {
        return with;
    }

    /** Echo request payload the preset measures with; 0 for {@code Calculator.Add}. */
    public int requestBytes() {
        return requestBytes;
    }

    /** Echo response payload the preset measures with; 0 for {@code Calculator.Add}. */
    public int responseBytes() {
        return responseBytes;
    }

    public static Optional<ExperimentPreset> find(String id) {
        String wanted = id.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(p -> p.id.equals(wanted)).findFirst();
    }

    /** The preset names, for error messages. */
    public static String names() {
        return Arrays.stream(values()).map(ExperimentPreset::id).collect(Collectors.joining(", "));
    }
}
