package io.perflab.upload;

import io.perflab.system.JsonSyntax;
import io.perflab.system.PrintableText;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.core.util.JsonParserDelegate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/**
 * Reads upload JSON into a tree. {@code NaN} and {@code Infinity} tokens are read as numbers so that validation
 * can name the metric that carries them, rather than failing on the token. A number beyond a double's range
 * ({@code 1e400}, a whole number of 400 digits) is refused as it is read, quoted as the file writes it: in the tree
 * it would be an infinity that a message could only call "Infinity", or a big integer. A key given twice in one
 * object is refused, as in every other request body: the tree would keep the last value only, and lose the first's
 * samples.
 */
final class JsonContent {

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** For telling a format by its shape only: content with a repeated key is still recognised, then refused. */
    private static final JsonMapper SHAPE = MAPPER.rebuild()
            .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private JsonContent() {
    }

    /**
     * The tree of {@code content}; malformed JSON → a message naming line and column.
     *
     * @throws InvalidUploadException for a number beyond a double's range, naming where it is
     */
    static JsonNode read(String content) {
        JsonParser parser = new FiniteNumbers(MAPPER.createParser(content));
        try (parser) {
            JsonNode tree = MAPPER.readTree(parser);
            // content without a value: null from a parser, the missing node from text, as the adapters expect
            return tree == null ? MissingNode.getInstance() : tree;
        } catch (StreamConstraintsException e) {
            throw beyondLimit(e, parser);
        } catch (JacksonException e) {
            // a key given twice is where the parser stopped: the path of its object and its name, the current one
            boolean duplicate = JsonContent.firstLine(e.getOriginalMessage()).startsWith(DUPLICATE);
            throw new MalformedJsonException(e, duplicate ? path(parser.streamReadContext()) : null);
        }
    }

    /** The parser's words for a limit passed: what it limits, how much it found, and how much it reads at most. */
    private static final java.util.regex.Pattern LIMIT = java.util.regex.Pattern.compile(
            "(Document nesting depth|Number value length|Name length|String value length) \\((\\d+)\\) exceeds "
                    + "the maximum allowed \\((\\d+)");

    /**
     * A value beyond what the parser reads ({@code StreamReadConstraints}): which limit, where and, for a value, its
     * path. The parser's exception has no location, so it was "a number, name or text is too long, or values are
     * nested too deeply, to be read", saying neither which nor where. A number's and a nesting's place is the token
     * where the parser stopped; a key or a text has no token yet, so it is said by where the reading stopped, after
     * it.
     */
    private static MalformedJsonException beyondLimit(StreamConstraintsException e, JsonParser parser) {
        java.util.regex.Matcher limit = LIMIT.matcher(firstLine(e.getOriginalMessage()));
        if (!limit.lookingAt()) {
            return new MalformedJsonException("a number, name or text is too long, or values are nested too deeply, "
                    + "to be read" + JsonSyntax.where(parser.currentLocation(), "reading stopped at "), null);
        }
        String found = limit.group(2);
        String most = limit.group(3);
        TokenStreamContext context = parser.streamReadContext();
        return switch (limit.group(1)) {
            case "Document nesting depth" -> new MalformedJsonException("values are nested more than " + most
                    + " deep, deeper than can be read" + JsonSyntax.where(parser.currentTokenLocation()), null);
            case "Number value length" -> beyond("number", path(context), found, most,
                    JsonSyntax.where(parser.currentTokenLocation()));
            // the object's context names its previous key, not the one being read: the key is in the object
            case "Name length" -> beyond("key", context.inObject() ? path(context.getParent()) : path(context),
                    found, most, JsonSyntax.where(parser.currentLocation(), "reading stopped at "));
            default -> beyond("text", path(context), found, most, JsonSyntax.where(parser.currentLocation(),
                    "reading stopped at "));
        };
    }

    /**
     * "the number at metrics.n[2] has 5001 characters; a number may have at most 1000 (line 1, column 26)", its
     * field the path; a key is said to be in its object.
     */
    private static MalformedJsonException beyond(String what, String path, String found, String most,
            String where) {
        String at = path == null ? "" : (what.equals("key") ? " in " : " at ") + UploadText.excerpt(path);
        return new MalformedJsonException((path == null ? "a " : "the ") + what + at + " has " + found
                + " characters; a " + what + " may have at most " + most + where, path);
    }

    /** The tree of {@code content} to tell its format by (a key given twice is let through), or null. */
    static JsonNode tryRead(String content) {
        try {
            return SHAPE.readTree(content);
        } catch (JacksonException e) {
            return null;
        }
    }

    /**
     * A parser that refuses a number beyond a double's range as it comes, quoting its text and saying where it is:
     * only the parser still has them. The tokens {@code NaN} and {@code Infinity} pass, for validation to name.
     */
    private static final class FiniteNumbers extends JsonParserDelegate {

        FiniteNumbers(JsonParser parser) {
            super(parser);
        }

        @Override
        public JsonToken nextToken() {
            JsonToken token = super.nextToken();
            boolean beyond = token == JsonToken.VALUE_NUMBER_FLOAT
                    ? Double.isInfinite(getDoubleValue()) && !isNaN()
                    : token == JsonToken.VALUE_NUMBER_INT && getNumberType() == NumberType.BIG_INTEGER
                            && Double.isInfinite(getBigIntegerValue().doubleValue());
            if (beyond) {
                String path = path(streamReadContext());
                throw new InvalidUploadException(path, "The value" + (path == null ? "" : " at "
                        + UploadText.excerpt(path)) + JsonSyntax.where(currentTokenLocation()) + ": "
                        + DecimalNumbers.beyondRange(getString()) + ".");
            }
            return token;
        }
    }

    /** How the parser begins its message about a key given twice in one object. */
    private static final String DUPLICATE = "Duplicate Object property";

    /**
     * Where the parser is in {@code context}, as the messages and fields about an upload write it:
     * {@code metrics.parse.values[3]}, each key {@link UploadText#excerpt cut} as they are; null for a value that is
     * the whole content.
     */
    private static String path(TokenStreamContext context) {
        java.util.Deque<TokenStreamContext> contexts = new java.util.ArrayDeque<>();
        for (TokenStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            contexts.push(c);
        }
        String path = null;
        for (TokenStreamContext c : contexts) {
            path = c.inArray() ? UploadFields.index(path, c.getCurrentIndex())
                    : UploadFields.key(path, String.valueOf(c.currentName()));
        }
        return path;
    }

    /** The first line of a parser's message: what follows is context the caller gives in its own terms. */
    static String firstLine(String message) {
        if (message == null) {
            return "unreadable input";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /**
     * JSON that does not parse, said in the user's terms with line and column: a file that ends early is called
     * truncated; the parser's own description of other faults is kept without its echo of the input.
     */
    static final class MalformedJsonException extends RuntimeException {

        private final String field;

        /** @param field where the fault is, when the parser knows a path there (a key given twice), else null */
        MalformedJsonException(JacksonException e, String field) {
            this(describe(e), field);
        }

        /**
         * @param message what is wrong, in the user's terms
         * @param field where the fault is, when a path is known, else null
         */
        MalformedJsonException(String message, String field) {
            super(PrintableText.Validator.shown(message));
            this.field = UploadFields.shown(field);
        }

        /** The path of the key given twice ({@code metrics.parse}); null for a fault that has no path. */
        String field() {
            return field;
        }

        private static String describe(JacksonException e) {
            String where = JsonSyntax.where(e.getLocation());
            if (e instanceof UnexpectedEndOfInputException) {
                return "it ends before its last value is complete" + where + ", so the file looks truncated: "
                        + "check that the benchmark finished and that the whole file was sent";
            }
            String message = firstLine(e.getOriginalMessage());
            if (message.startsWith("Trailing token")) {
                // Jackson's words name the token and the Java type the content was read as
                return "more follows the end of the JSON value" + where + ": a file holds one JSON value, "
                        + "nothing after it";
            }
            if (message.startsWith(DUPLICATE) && message.indexOf('"') >= 0) {
                String key = message.substring(message.indexOf('"'));
                return "a key appears twice in one object: " + UploadText.excerpt(key) + where;
            }
            // Jackson's other words quote its parser's states ("Unexpected close marker ']': no open Array to
            // close"): the token at fault, in the file's terms, and where it is
            return JsonSyntax.fault(message, where).orElse("it is not valid JSON" + where);
        }
    }
}
