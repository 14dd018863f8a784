package io.perflab.rpc;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The engine options users A/B-test: each value selects a separately implemented code path.
 * Immutable and valid by construction; build with {@link #builder()} or derive with
 * {@link #withOption(String, String)}. Every default is the faster variant.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>name</th><th>values</th><th>default</th><th>mechanism</th></tr>
 *   <tr><td>{@code completion}</td><td>notification, monitor, condvar, futex, future</td><td>notification</td>
 *       <td>how a synchronous caller waits for its response: one atomic state word + park/unpark that
 *       unparks only a waiter that actually parked; a {@code synchronized} wait/notifyAll latch; a mutex
 *       and a condition variable with POSIX semantics (the waiter is woken while the signaller still holds
 *       the mutex, as in the latch seed 003 replaced); the state word with the waiter asleep in
 *       {@code futex(2)} called directly, as seed 003's {@code Notification} (Linux on amd64 or aarch64 only,
 *       {@link #platforms()}, and the JVM needs {@link #jvmFlags()}); or {@code CompletableFuture.get}</td></tr>
 *   <tr><td>{@code callBufferInitialBytes}</td><td>positive integer, e.g. 256, 4096</td><td>4096</td>
 *       <td>initial capacity of the per-call frame buffer (client request, server response); a larger
 *       body grows it by doubling (Netty's growth below 4 MiB)</td></tr>
 *   <tr><td>{@code allocator}</td><td>pooled, unpooled, adaptive</td><td>pooled</td>
 *       <td>Netty {@code PooledByteBufAllocator} / {@code UnpooledByteBufAllocator} /
 *       {@code AdaptiveByteBufAllocator} for every buffer of client and server channels</td></tr>
 *   <tr><td>{@code callObjects}</td><td>recycled, fresh</td><td>recycled</td>
 *       <td>per-call objects (client outbound calls with their completion, server inbound calls)
 *       come from a per-connection pool, or are allocated new for every call</td></tr>
 *   <tr><td>{@code transport}</td><td>epoll, nio</td><td>epoll</td>
 *       <td>Netty transport; epoll falls back to nio with a logged reason where unavailable</td></tr>
 *   <tr><td>{@code flush}</td><td>consolidated, immediate</td><td>consolidated</td>
 *       <td>writes handed to the event loop are batched and flushed once per batch (and once per
 *       read loop), or each request/response is written and flushed on its own</td></tr>
 *   <tr><td>{@code tls}</td><td>true, false</td><td>false</td>
 *       <td>TLS on every connection with a self-signed certificate generated at server start</td></tr>
 * </table>
 *
 * <p>Over 300 lines: each option's parser, default and description stand together with the builder.
 *
 * <p>Server-side sizing (reactors, worker threads, queue length, maximum frame size) is not an
 * engine option but part of {@link ServerConfig}: they are workload parameters of rpc-bench.
 */
public record EngineOptions(Completion completion, int callBufferInitialBytes, Allocator allocator,
                            CallObjects callObjects, Transport transport, Flush flush, boolean tls) {

    /** How a synchronous caller waits for its call to complete. */
    public enum Completion { NOTIFICATION, MONITOR, CONDVAR, FUTEX, FUTURE }

    /** Which Netty {@code ByteBufAllocator} the channels use. */
    public enum Allocator { POOLED, UNPOOLED, ADAPTIVE }

    /** Whether per-call objects are recycled through a per-connection pool. */
    public enum CallObjects { RECYCLED, FRESH }

    /** Netty transport. */
    public enum Transport { EPOLL, NIO }

    /** Write batching. */
    public enum Flush { CONSOLIDATED, IMMEDIATE }

    /** One option: its name, its allowed values (or a description of them) and its default. */
    public record OptionSpec(String name, List<String> allowedValues, boolean freeForm, String defaultValue,
                             String description) {
        /** Allowed values as shown to users, e.g. {@code notification|monitor|condvar|future}. */
        public String allowedValuesText() {
            return freeForm ? "positive integer, e.g. " + String.join(", ", allowedValues)
                    : String.join("|", allowedValues);
        }
    }

    public static final String COMPLETION = "completion";
    public static final String CALL_BUFFER_INITIAL_BYTES = "callBufferInitialBytes";
    public static final String ALLOCATOR = "allocator";
    public static final String CALL_OBJECTS = "callObjects";
    public static final String TRANSPORT = "transport";
    public static final String FLUSH = "flush";
    public static final String TLS = "tls";

    /** Largest accepted {@code callBufferInitialBytes}: 16 MiB. */
    public static final int MAX_CALL_BUFFER_INITIAL_BYTES = 16 * 1024 * 1024;

    private static final EngineOptions DEFAULTS = new Builder().build();

    private static final List<OptionSpec> SPECS = List.of(
            enumSpec(COMPLETION, Completion.values(), DEFAULTS.completion,
                    "how a synchronous caller waits for its response"),
            new OptionSpec(CALL_BUFFER_INITIAL_BYTES, List.of("256", "4096"), true,
                    Integer.toString(DEFAULTS.callBufferInitialBytes),
                    "initial capacity in bytes of the per-call frame buffer, grown by doubling"),
            enumSpec(ALLOCATOR, Allocator.values(), DEFAULTS.allocator, "Netty buffer allocator"),
            enumSpec(CALL_OBJECTS, CallObjects.values(), DEFAULTS.callObjects,
                    "per-call objects from a per-connection pool or new per call"),
            enumSpec(TRANSPORT, Transport.values(), DEFAULTS.transport, "Netty transport"),
            enumSpec(FLUSH, Flush.values(), DEFAULTS.flush, "write batching"),
            new OptionSpec(TLS, List.of("true", "false"), false, Boolean.toString(DEFAULTS.tls),
                    "TLS with a self-signed certificate generated at server start"));

    public EngineOptions {
        Objects.requireNonNull(completion, COMPLETION);
        checkBufferBytes(callBufferInitialBytes);
        Objects.requireNonNull(allocator, ALLOCATOR);
        Objects.requireNonNull(callObjects, CALL_OBJECTS);
        Objects.requireNonNull(transport, TRANSPORT);
        Objects.requireNonNull(flush, FLUSH);
    }

    /** The defaults: every option at its faster value. */
    public static EngineOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Every option in {@link #describe()} order, with its allowed values and default. */
    public static List<OptionSpec> optionSpecs() {
        return SPECS;
    }

    /** Option names in {@link #describe()} order. */
    public static List<String> optionNames() {
        return SPECS.stream().map(OptionSpec::name).collect(Collectors.toUnmodifiableList());
    }

    /** Parses {@code name=value} pairs onto the defaults; see {@link #withOption(String, String)}. */
    public static EngineOptions fromMap(Map<String, String> options) {
        EngineOptions result = DEFAULTS;
        for (Map.Entry<String, String> e : options.entrySet()) {
            result = result.withOption(e.getKey(), e.getValue());
        }
        return result;
    }

    /**
     * A copy with one option changed, parsed from text (value case-insensitive).
     *
     * @throws IllegalArgumentException for an unknown name or value; the message lists what is allowed
     */
    public EngineOptions withOption(String name, String value) {
        Objects.requireNonNull(name, "name");
        if (value == null) {
            throw new IllegalArgumentException("engine option '" + name + "' needs a value");
        }
        String v = value.strip();
        Builder b = toBuilder();
        switch (name) {
            case COMPLETION -> b.completion(parseEnum(name, v, Completion.values()));
            case CALL_BUFFER_INITIAL_BYTES -> b.callBufferInitialBytes(parseBufferBytes(v));
            case ALLOCATOR -> b.allocator(parseEnum(name, v, Allocator.values()));
            case CALL_OBJECTS -> b.callObjects(parseEnum(name, v, CallObjects.values()));
            case TRANSPORT -> b.transport(parseEnum(name, v, Transport.values()));
            case FLUSH -> b.flush(parseEnum(name, v, Flush.values()));
            case TLS -> b.tls(parseBoolean(v));
            default -> throw new IllegalArgumentException("unknown engine option '" + name
                    + "'; allowed options: " + SPECS.stream()
                    .map(s -> s.name() + " (" + s.allowedValuesText() + ")")
                    .collect(Collectors.joining(", ")));
        }
        return b.build();
    }

    /**
     * Every option as {@code name -> value}, in a stable order (that of {@link #optionSpecs()}),
     * with values spelled as {@link #withOption(String, String)} accepts them.
     */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(COMPLETION, text(completion));
        m.put(CALL_BUFFER_INITIAL_BYTES, Integer.toString(callBufferInitialBytes));
        m.put(ALLOCATOR, text(allocator));
        m.put(CALL_OBJECTS, text(callObjects));
        m.put(TRANSPORT, text(transport));
        m.put(FLUSH, text(flush));
        m.put(TLS, Boolean.toString(tls));
        return Collections.unmodifiableMap(m);
    }

    /** The options that differ from {@code other}, as {@code name -> value of this}. */
    public Map<String, String> differencesFrom(EngineOptions other) {
        Map<String, String> mine = describe();
        Map<String, String> theirs = other.describe();
        Map<String, String> diff = new LinkedHashMap<>();
        mine.forEach((k, v) -> {
            if (!v.equals(theirs.get(k))) {
                diff.put(k, v);
            }
        });
        return Collections.unmodifiableMap(diff);
    }

    /**
     * The flags a JVM must be started with to run these options: for {@code completion=futex}, the incubating foreign
     * linker and native access; none for any other option.
     */
    public List<String> jvmFlags() {
        return completion == Completion.FUTEX ? FutexCompletion.JVM_FLAGS : List.of();
    }

    /**
     * The options among these whose code path runs on one platform only, as {@code name=value} → that platform:
     * {@code completion=futex} runs on Linux on amd64 or aarch64 ({@code FutexCompletion}, whose own refusal checks
     * the same platform); every other option runs anywhere the engine does.
     */
    public Map<String, Platform> platforms() {
        return completion == Completion.FUTEX ? Map.of(COMPLETION + "=" + text(completion), FutexCompletion.PLATFORM)
                : Map.of();
    }

    public Builder toBuilder() {
        return new Builder().completion(completion).callBufferInitialBytes(callBufferInitialBytes)
                .allocator(allocator).callObjects(callObjects).transport(transport).flush(flush).tls(tls);
    }

    /** {@code completion=notification callBufferInitialBytes=4096 …} in {@link #describe()} order. */
    @Override
    public String toString() {
        return describe().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }

    static String text(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    private static <E extends Enum<E>> OptionSpec enumSpec(String name, E[] values, E def, String description) {
        return new OptionSpec(name, Arrays.stream(values).map(EngineOptions::text)
                .collect(Collectors.toUnmodifiableList()), false, text(def), description);
    }

    private static <E extends Enum<E>> E parseEnum(String name, String value, E[] values) {
        for (E e : values) {
            if (e.name().equalsIgnoreCase(value)) {
                return e;
            }
        }
        throw new IllegalArgumentException("invalid value '" + value + "' for engine option '" + name
                + "'; allowed values: " + Arrays.stream(values).map(EngineOptions::text)
                .collect(Collectors.joining(", ")));
    }

    private static int parseBufferBytes(String value) {
        try {
            int n = Integer.parseInt(value);
            checkBufferBytes(n);
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid value '" + value + "' for engine option '"
                    + CALL_BUFFER_INITIAL_BYTES + "'; allowed values: a positive integer up to "
                    + MAX_CALL_BUFFER_INITIAL_BYTES + ", e.g. 256, 4096");
        }
    }

    private static void checkBufferBytes(int n) {
        if (n < 1 || n > MAX_CALL_BUFFER_INITIAL_BYTES) {
            throw new IllegalArgumentException("invalid value '" + n + "' for engine option '"
                    + CALL_BUFFER_INITIAL_BYTES + "'; allowed values: a positive integer up to "
                    + MAX_CALL_BUFFER_INITIAL_BYTES + ", e.g. 256, 4096");
        }
    }

    private static boolean parseBoolean(String value) {
        if ("true".equalsIgnoreCase(value)) {
            return true;
        }
        if ("false".equalsIgnoreCase(value)) {
            return false;
        }
        throw new IllegalArgumentException("invalid value '" + value + "' for engine option '" + TLS
                + "'; allowed values: true, false");
    }

    /** Builder starting from the defaults. */
    public static final class Builder {
        private Completion completion = Completion.NOTIFICATION;
        private int callBufferInitialBytes = 4096;
        private Allocator allocator = Allocator.POOLED;
        private CallObjects callObjects = CallObjects.RECYCLED;
        private Transport transport = Transport.EPOLL;
        private Flush flush = Flush.CONSOLIDATED;
        private boolean tls;

        private Builder() {
        }

        public Builder completion(Completion value) {
            this.completion = Objects.requireNonNull(value, COMPLETION);
            return this;
        }

        public Builder callBufferInitialBytes(int value) {
            checkBufferBytes(value);
            this.callBufferInitialBytes = value;
            return this;
        }

        public Builder allocator(Allocator value) {
            this.allocator = Objects.requireNonNull(value, ALLOCATOR);
            return this;
        }

        public Builder callObjects(CallObjects value) {
            this.callObjects = Objects.requireNonNull(value, CALL_OBJECTS);
            return this;
        }

        public Builder transport(Transport value) {
            this.transport = Objects.requireNonNull(value, TRANSPORT);
            return this;
        }

        public Builder flush(Flush value) {
            this.flush = Objects.requireNonNull(value, FLUSH);
            return this;
        }

        public Builder tls(boolean value) {
            this.tls = value;
            return this;
        }

        public EngineOptions build() {
            return new EngineOptions(completion, callBufferInitialBytes, allocator, callObjects, transport, flush, tls);
        }
    }
}
