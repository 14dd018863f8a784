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
 * neither which nor where (HostileUploadPropertyTests found them, among the refusals of its mutants).
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
}
