package io.perflab.runner.json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON writer and reader for the runner's own documents: trial results, experiment files.
 *
 * <p>Values are {@link Map} (objects, insertion order kept), {@link List} (arrays), {@link String},
 * {@link Number}, {@link Boolean} and {@code null}. The reader returns integral numbers that fit as {@link Long}
 * and everything else as {@link Double}. Non-finite doubles are written as {@code null}, since JSON has no NaN.
 * The runner module has no Spring and no Jackson; its documents are small and flat, so this is enough.
 */
public final class Json {

    private Json() {
    }

    /** Compact JSON text of {@code value}, on one line. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out, -1, 0);
        return out.toString();
    }

    /** JSON text of {@code value} indented by two spaces per level. */
    public static String writePretty(Object value) {
        StringBuilder out = new StringBuilder(1024);
        write(value, out, 2, 0);
        return out.toString();
    }

    /** Parses one JSON value; throws {@link JsonException} naming the position of the first error. */
    public static Object parse(String text) {
        Reader reader = new Reader(text);
        reader.skipWhitespace();
        Object value = reader.value();
        reader.skipWhitespace();
        if (!reader.atEnd()) {
            throw reader.error("unexpected text after the value");
        }
        return value;
    }

    /** Parses a JSON object; throws {@link JsonException} if the text holds anything else. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        Object value = parse(text);
        if (!(value instanceof Map)) {
            throw new JsonException("expected a JSON object, got " + describe(value));
        }
        return (Map<String, Object>) value;
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName();
    }

    private static void write(Object value, StringBuilder out, int indent, int level) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            quote(s, out);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                out.append("null");
            } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                out.append((long) d).append(".0");
            } else {
                out.append(d);
            }
        } else if (value instanceof BigDecimal b) {
            out.append(b.toPlainString());
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                newline(out, indent, level + 1);
                quote(String.valueOf(e.getKey()), out);
                out.append(indent < 0 ? ":" : ": ");
                write(e.getValue(), out, indent, level + 1);
            }
            if (!map.isEmpty()) {
                newline(out, indent, level);
            }
            out.append('}');
        } else if (value instanceof Iterable<?> list) {
            out.append('[');
            boolean first = true;
            for (Object element : list) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                newline(out, indent, level + 1);
                write(element, out, indent, level + 1);
            }
            if (!first) {
                newline(out, indent, level);
            }
            out.append(']');
        } else if (value instanceof Enum<?> e) {
            quote(e.name(), out);
        } else {
            quote(value.toString(), out);
        }
    }

    private static void newline(StringBuilder out, int indent, int level) {
        if (indent >= 0) {
            out.append('\n');
            out.append(" ".repeat(indent * level));
        }
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static final class Reader {
        private final String text;
        private int pos;

        Reader(String text) {
            this.text = text;
        }

        boolean atEnd() {
            return pos >= text.length();
        }

        JsonException error(String what) {
            return new JsonException(what + " at offset " + pos);
        }

        void skipWhitespace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        Object value() {
            if (atEnd()) {
                throw error("unexpected end of JSON");
            }
            char c = text.charAt(pos);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                case 'n' -> literal("null", null);
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        yield number();
                    }
                    throw error("unexpected character '" + c + "'");
                }
            };
        }

        private Object literal(String word, Object value) {
            if (!text.startsWith(word, pos)) {
                throw error("expected " + word);
            }
            pos += word.length();
            return value;
        }

        private Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            pos++;
            skipWhitespace();
            if (peek() == '}') {
                pos++;
                return map;
            }
            while (true) {
                skipWhitespace();
                if (peek() != '"') {
                    throw error("expected a member name");
                }
                String key = string();
                skipWhitespace();
                expect(':');
                skipWhitespace();
                map.put(key, value());
                skipWhitespace();
                char c = next();
                if (c == '}') {
                    return map;
                }
                if (c != ',') {
                    pos--;
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            pos++;
            skipWhitespace();
            if (peek() == ']') {
                pos++;
                return list;
            }
            while (true) {
                skipWhitespace();
                list.add(value());
                skipWhitespace();
                char c = next();
                if (c == ']') {
                    return list;
                }
                if (c != ',') {
                    pos--;
                    throw error("expected ',' or ']'");
                }
            }
        }

        private String string() {
            pos++;
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return out.toString();
                }
                if (c == '\\') {
                    char e = next();
                    switch (e) {
                        case '"', '\\', '/' -> out.append(e);
                        case 'n' -> out.append('\n');
                        case 'r' -> out.append('\r');
                        case 't' -> out.append('\t');
                        case 'b' -> out.append('\b');
                        case 'f' -> out.append('\f');
                        case 'u' -> {
                            if (pos + 4 > text.length()) {
                                throw error("truncated \\u escape");
                            }
                            try {
                                out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                            } catch (NumberFormatException ex) {
                                throw error("bad \\u escape");
                            }
                            pos += 4;
                        }
                        default -> throw error("bad escape '\\" + e + "'");
                    }
                } else {
                    out.append(c);
                }
            }
        }

        private Number number() {
            int start = pos;
            boolean integral = true;
            while (pos < text.length()) {
                char c = text.charAt(pos);
                if (c == '.' || c == 'e' || c == 'E') {
                    integral = false;
                } else if (!(c == '-' || c == '+' || (c >= '0' && c <= '9'))) {
                    break;
                }
                pos++;
            }
            String token = text.substring(start, pos);
            try {
                if (integral) {
                    try {
                        return Long.parseLong(token);
                    } catch (NumberFormatException tooLong) {
                        return Double.parseDouble(token);
                    }
                }
                return Double.parseDouble(token);
            } catch (NumberFormatException ex) {
                pos = start;
                throw error("bad number '" + token + "'");
            }
        }

        private char peek() {
            if (atEnd()) {
                throw error("unexpected end of JSON");
            }
            return text.charAt(pos);
        }

        private char next() {
            char c = peek();
            pos++;
            return c;
        }

        private void expect(char c) {
            if (next() != c) {
                pos--;
                throw error("expected '" + c + "'");
            }
        }
    }
}
