package io.perflab.system;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

/**
 * Reads a value that is text but may be written as a JSON number or true/false, as written: an engine option's
 * value ({@code "with": {"callBufferInitialBytes": 4096}} means what it says). Every other text field of a request
 * body refuses a number, true/false, an object or a list ({@code SystemConfig}); so does this one an object or a list.
 */
public final class ScalarText extends ValueDeserializer<String> {

    @Override
    public String deserialize(JsonParser p, DeserializationContext ctxt) {
        return p.currentToken().isScalarValue()
                ? p.getString() : (String) ctxt.handleUnexpectedToken(String.class, p);
    }
}
