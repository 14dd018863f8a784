package io.perflab.runner.json;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.perflab.rpc.EngineOptions;
import java.util.Map;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The runner's one JSON mapper: trial specs, trial results, experiment files and stored workloads. It is strict,
 * because what it reads was written by PerfLab and anything else is a bug to surface: unknown fields, duplicate
 * keys, fractions where an integer belongs and nulls for primitives are errors.
 *
 * <p>{@link EngineOptions} (in the engine module, which knows no JSON) is written as its
 * {@linkplain EngineOptions#describe() name → value map} and read back with {@link EngineOptions#fromMap}.
 */
public final class RunnerJson {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .addMixIn(EngineOptions.class, EngineOptionsJson.class)
            .build();

    private RunnerJson() {
    }

    /** The shared, thread-safe mapper. */
    public static JsonMapper mapper() {
        return MAPPER;
    }

    /** {@link EngineOptions} as JSON: the option map. */
    abstract static class EngineOptionsJson {

        @JsonCreator
        static EngineOptions fromMap(Map<String, String> options) {
            return EngineOptions.fromMap(options);
        }

        @JsonValue
        abstract Map<String, String> describe();
    }
}
