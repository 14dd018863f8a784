package io.perflab.system;

import java.time.Instant;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ext.javatime.deser.InstantDeserializer;

/**
 * Reads a time of a request body only from ISO-8601 text such as {@code 2026-01-01T12:00:00Z}. Jackson also takes a
 * number, or text of digits, as seconds since 1970: an agent's {@code "start": 12345} was stored as a trial that
 * began in 1970. Such a value is refused as "must be a time …" ({@link FieldMessages#expected}).
 */
final class TimeText extends ValueDeserializer<Instant> {

    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctxt) {
        if (!p.hasToken(JsonToken.VALUE_STRING) || p.getString().strip().matches("[-+]?[0-9]*(\\.[0-9]*)?")) {
            return (Instant) ctxt.handleUnexpectedToken(Instant.class, p);
        }
        return InstantDeserializer.INSTANT.deserialize(p, ctxt);
    }
}
