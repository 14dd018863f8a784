package io.perflab.runner.rpcbench;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How rpc-bench's clients issue calls. */
public enum CallMode {
    /** Each client thread has its own connection and one outstanding synchronous call. */
    SYNC,
    /** {@code asyncConcurrency} outstanding asynchronous calls spread over the client reactors. */
    ASYNC;

    /** The name used on command lines and in reports: {@code sync}, {@code async}. */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code sync} or {@code async} in any case. */
    @JsonCreator
    public static CallMode parse(String text) {
        for (CallMode mode : values()) {
            if (mode.label().equalsIgnoreCase(text.strip())) {
                return mode;
            }
        }
        throw new IllegalArgumentException("must be sync or async, got '" + text + "'");
    }
}
