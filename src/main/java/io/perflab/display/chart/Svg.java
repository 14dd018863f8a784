package io.perflab.display.chart;

/**
 * A small writer of SVG markup: elements with attributes, text escaped for XML, coordinates with at most one
 * decimal (charts are a few hundred pixels wide, so a tenth of a pixel is below what a screen shows, and it keeps
 * the markup short). Attribute values may be strings (escaped), numbers (coordinates) or null (left out).
 */
final class Svg {

    private static final String FONT = "system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif";

    private final StringBuilder out = new StringBuilder(4096);

    private Svg() {
    }

    /**
     * The root of a chart: its id, its size as a view box (so that it scales down on a narrow screen), and a title
     * and a description, which are its text alternative. Text is 11 px in the system font unless an element says
     * otherwise.
     */
    static Svg chart(String id, double width, double height, String title, String description) {
        Svg svg = new Svg();
        svg.open("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "chart", "role", "img", "id", id,
                "viewBox", "0 0 " + number(width) + " " + number(height), "width", width, "height", height,
                "aria-labelledby", id + "-title " + id + "-desc", "font-family", FONT, "font-size", 11);
        svg.open("title", "id", id + "-title").text(title).close("title");
        svg.open("desc", "id", id + "-desc").text(description).close("desc");
        return svg;
    }

    /** {@code <name attributes…>}; close it with {@link #close}. */
    Svg open(String name, Object... attributes) {
        out.append('<').append(name);
        attributes(attributes);
        out.append('>');
        return this;
    }

    /** {@code <name attributes…/>}. */
    Svg leaf(String name, Object... attributes) {
        out.append('<').append(name);
        attributes(attributes);
        out.append("/>");
        return this;
    }

    Svg close(String name) {
        out.append("</").append(name).append('>');
        return this;
    }

    /** Character data, escaped. */
    Svg text(String text) {
        out.append(escape(text));
        return this;
    }

    /** A tooltip for the element just opened. */
    Svg title(String text) {
        return open("title").text(text).close("title");
    }

    Svg line(double x1, double y1, double x2, double y2, Object... attributes) {
        out.append("<line x1=\"").append(number(x1)).append("\" y1=\"").append(number(y1)).append("\" x2=\"")
                .append(number(x2)).append("\" y2=\"").append(number(y2)).append('"');
        attributes(attributes);
        out.append("/>");
        return this;
    }

    /** A text element at (x, y). */
    Svg label(double x, double y, String text, Object... attributes) {
        out.append("<text x=\"").append(number(x)).append("\" y=\"").append(number(y)).append('"');
        attributes(attributes);
        out.append('>').append(escape(text)).append("</text>");
        return this;
    }

    /** Closes the root element and returns the markup. */
    String end() {
        return close("svg").out.toString();
    }

    private void attributes(Object[] pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("attributes come in name/value pairs");
        }
        for (int i = 0; i < pairs.length; i += 2) {
            Object value = pairs[i + 1];
            if (value == null) {
                continue;
            }
            out.append(' ').append(pairs[i]).append("=\"");
            if (value instanceof Double || value instanceof Float) {
                out.append(number(((Number) value).doubleValue()));
            } else {
                out.append(escape(value.toString()));
            }
            out.append('"');
        }
    }

    /** A coordinate with at most one decimal: {@code 12}, {@code 12.5}, {@code -0.5} (a chart has thousands). */
    static String number(double v) {
        long tenths = Math.round(v * 10);
        long whole = Math.abs(tenths) / 10;
        long tenth = Math.abs(tenths) % 10;
        return (tenths < 0 ? "-" : "") + whole + (tenth == 0 ? "" : "." + tenth);
    }

    /** Text for XML character data and attribute values; control characters (but tab and newline) become spaces. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
            }
        }
        return b.toString();
    }
}
