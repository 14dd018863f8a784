package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What JSON that cannot be read is refused with: what is wrong and where, in the file's terms. Beyond the parser's
 * limits, each of these was "a number, name or text is too long, or values are nested too deeply, to be read", saying
 * neither which nor where; a control character, an escape JSON has not and a leading zero were "it is not valid
 * JSON (line …)", saying where but not what (HostileUploadPropertyTests found them, among the refusals of its
 * mutants).
 */
class JsonContentTests {

    private static final String ZEROS = "0".repeat(5000);
    private static final String KEY = "k".repeat(60_000);

    private static JsonContent.MalformedJsonException refusal(String json) {
        return (JsonContent.MalformedJsonException) assertThatThrownBy(() -> JsonContent.read(json))
                .isInstanceOf(JsonContent.MalformedJsonException.class).actual();
    }

    /** JSON beyond a limit of the parser, what its refusal says, and the field it names. */
    static Stream<Arguments> beyondALimit() {
        return Stream.of(
                Arguments.of("{\"a\": [1, 2, 1" + ZEROS + "]}",
                        "the number at a[2] has 5001 characters; a number may have at most 1000 (line 1, column 14)",
                        "a[2]"),
                Arguments.of("{\"a\": {\"b\": 1" + ZEROS + "}}",
                        "the number at a.b has 5001 characters; a number may have at most 1000 (line 1, column 13)",
                        "a.b"),
                Arguments.of("{\"a\": 1, \"" + KEY + "\": 2}", "a key has 60000 characters; a key may have at "
                        + "most 50000 (reading stopped at line 1, column 60016)", null),
                Arguments.of("{\"m\": {\"" + KEY + "\": 2}}", "the key in m has 60000 characters; a key may have "
                        + "at most 50000 (reading stopped at line 1, column 60015)", "m"),
                // the '[' that opens the 501st level: the object is the first
                Arguments.of("{\"a\": " + "[".repeat(600) + "]".repeat(600) + "}",
                        "values are nested more than 500 deep, deeper than can be read (line 1, column 506)", null));
    }

    @ParameterizedTest
    @MethodSource("beyondALimit")
    void saysWhichLimitAValuePassesAndWhere(String json, String message, String field) {
        JsonContent.MalformedJsonException refused = refusal(json);
        assertThat(refused).hasMessage(message);
        assertThat(refused.field()).isEqualTo(field);
    }

    /** JSON of a fault the parser names in its own terms, and what its refusal says in the file's. */
    static Stream<Arguments> onlyNotValidJson() {
        return Stream.of(
                Arguments.of("{\"a\": \"x\u0000y\"}", "a text holds the control character U+0000 (line 1, column 9), "
                        + "which JSON writes as an escape (\\u0000)"),
                Arguments.of("{\"a\u001B\": 1}", "a key holds the control character U+001B (line 1, column 4), "
                        + "which JSON writes as an escape (\\u001B)"),
                Arguments.of("{\"a\": 1,\u0000 \"b\": 2}", "the control character U+0000 stands between values (line "
                        + "1, column 9), where only spaces, tabs and line breaks may"),
                Arguments.of("{\"a\": 1.\u001B}", "the control character U+001B cannot stand there (line 1, column "
                        + "8)"),
                Arguments.of("{\"a\": \"\\q\"}", "'\\q' in a text is no escape of JSON (line 1, column 9), which has "
                        + "\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\u with four hex digits"),
                Arguments.of("{\"a\": [1, 012]}", "a number begins with a 0 followed by a digit (line 1, column 12), "
                        + "which JSON does not allow: write 12, not 012"));
    }

    @ParameterizedTest
    @MethodSource("onlyNotValidJson")
    void saysWhatIsWrongWhereItWasOnlyNotValidJson(String json, String message) {
        assertThat(refusal(json)).hasMessage(message);
    }
}
