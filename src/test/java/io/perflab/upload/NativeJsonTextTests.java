package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * PerfLab's own upload JSON reads its text fields strictly, as every other {@code /api} body does: a number,
 * true/false, an object or a list where text belongs was stored as its text ({@code "benchmark": 5} as "5"). A
 * machine description stays a JSON object of any values.
 */
class NativeJsonTextTests {

    private final UploadFormats formats = new UploadFormats();

    private ParsedUpload parse(String fields) {
        return formats.parse("{\"metrics\": {\"t\": {\"values\": [1, 2]}}" + fields + "}", UploadFormat.JSON, "with",
                null);
    }

    @Test
    void aNumberOrTrueFalseWhereTextBelongsIsRefusedNamingTheField() {
        String[][] cases = {
            {", \"benchmark\": 5", "'benchmark' must be text, got a number 5."},
            {", \"name\": true", "'name' must be text, got true."},
            {", \"variant\": 5", "'variant' must be text, got a number 5."},
            {", \"git\": {\"branch\": 7}", "'git.branch' must be text, got a number 7."},
            {", \"git\": {\"pullRequest\": 12.5}", "'git.pullRequest' must be text or a whole number from 0, got a "
                    + "number 12.5."},
            {", \"git\": {\"pullRequest\": -1}", "'git.pullRequest' must be text or a whole number from 0, got a "
                    + "number -1."},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> parse(c[0])).as(c[0]).hasMessageContaining(c[1]);
        }
        assertThatThrownBy(() -> formats.parse("{\"metrics\": {\"t\": {\"unit\": 5, \"values\": [1, 2]}}}",
                UploadFormat.JSON, "with", null))
                .hasMessageContaining("'metrics.t.unit' must be text, got a number 5.");
    }

    @Test
    void aPullRequestNumberAndAMachinesValuesStayAsWritten() {
        ParsedUpload upload = parse(", \"benchmark\": \"b\", \"git\": {\"pullRequest\": 42}, "
                + "\"machine\": {\"cores\": 8, \"smt\": false, \"cpu\": \"EPYC\"}");
        assertThat(upload.git().pullRequest()).isEqualTo("42");
        assertThat(upload.machine()).containsEntry("cores", 8).containsEntry("smt", false).containsEntry("cpu", "EPYC");
    }
}
