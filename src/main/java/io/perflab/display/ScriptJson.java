package io.perflab.display;

import tools.jackson.databind.json.JsonMapper;

/**
 * JSON for a {@code <script type="application/json">} element of a page or report. Inside a script element HTML
 * escaping does not apply, so a string holding {@code </script>} or {@code <!--} would end the element or change
 * how it is parsed; here every {@code <}, {@code >} and {@code &} is written as a JSON escape ({@code \u003c}, …),
 * which any JSON parser reads back as the same character. Outside strings JSON has none of them, so the
 * replacement only ever touches string contents.
 */
public final class ScriptJson {

    private ScriptJson() {
    }

    /** {@code value} as JSON that no value can break out of, for {@code th:utext} inside a script element. */
    public static String write(JsonMapper json, Object value) {
        return escape(json.writeValueAsString(value));
    }

    /** JSON text with {@code <}, {@code >} and {@code &} escaped. */
    static String escape(String jsonText) {
        return jsonText.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
    }
}
