package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The CSV format: RFC 4180 records, the header, and the one number grammar of {@link DecimalNumbers}. */
class CsvAdapterTests {

    private final UploadFormats formats = new UploadFormats();

    private List<Double> values(String csv) {
        return formats.parse(csv, UploadFormat.CSV, "with", null).variants().get("with").metrics().get("t").values();
    }

    @Test
    void readsEveryDecimalOfTheGrammar() {
        assertThat(values("metric,value\nt,12\nt,-0.5\nt,.5\nt,3.\nt,1.2e-3\nt,+4E6\nt, 7 \nt,\"8.25\"\n"))
                .containsExactly(12.0, -0.5, 0.5, 3.0, 0.0012, 4e6, 7.0, 8.25);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1d", "2.5f", "0x1p3", "NaN", "Infinity", "-Infinity", "1_000", "\"1,5\"", "1.2.3", "e5",
        "٣"})
    void refusesAnythingElseNamingLineAndField(String value) {
        assertThatThrownBy(() -> values("metric,value\nt,1\nt," + value + "\n"))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageContaining("CSV line 3, field 2 (value) of metric 't'")
                .hasMessageContaining("is not a number")
                .hasMessageContaining("a decimal such as 12, -0.5 or 1.2e-3");
    }

    @Test
    void refusesAnEmptyValueAndANumberBeyondDoubleRange() {
        assertThatThrownBy(() -> values("metric,value\nt,\n")).hasMessageContaining("line 2, field 2 (value)")
                .hasMessageContaining("no value");
        assertThatThrownBy(() -> values("metric,value\nt,1e400\n")).hasMessageContaining("line 2")
                .hasMessageContaining("beyond the range of a double");
    }

    @Test
    void quotedFieldsKeepCommasQuotesAndLineBreaksAndLinesStayRight() {
        ParsedUpload upload = formats.parse("metric,value,variant,unit\n\"parse, \"\"fast\"\"\",1,\"with\",ns\n"
                + "\"multi\nline\",2,with,ns\n\nt,3,with,ns\n",
                UploadFormat.CSV, "with", null);
        assertThat(upload.variants().get("with").metrics()).containsOnlyKeys("parse, \"fast\"", "multi\nline", "t");
        // the multi-line record starts on line 3, so the blank line is 5 and the next record line 6
        assertThatThrownBy(() -> values("metric,value\nt,1\n\"multi\nline\",2\n\nt,2.5f\n"))
                .hasMessageContaining("CSV line 6,");
    }

    @Test
    void refusesAColumnThatIsNotOfTheFormatAndARowWithTooManyFields() {
        assertThatThrownBy(() -> values("metric,value,colour\nt,1,red\n"))
                .hasMessageContaining("field 3: 'colour' is not a column of this format");
        assertThatThrownBy(() -> values("metric,value,unit\nt,1,ns,extra\n"))
                .hasMessageContaining("CSV line 2 has 4 fields; the header has 3");
    }

    @Test
    void aMetricInTwoUnitsIsRefusedNamingTheLineNotPooled() {
        // 1500 ms and 1.6 s were pooled as one metric in ms, as if 1.6 ms
        assertThatThrownBy(() -> values("metric,value,unit\nt,1500,ms\nt,1.6,s\n"))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("CSV line 3: metric 't' has unit 's' here and unit 'ms' before; values in different "
                        + "units cannot be pooled. Give each unit its own metric, or convert the values to one unit.");
        // each side of one file is its own: its units are compared later, side against side
        assertThat(values("metric,value,unit\nt,1500,ms\nt,1600,ms\n")).containsExactly(1500.0, 1600.0);
    }

    @Test
    void twoLabelsOfOneSideAreRefusedNotPooled() {
        // a label is stored as 'with': rows of 'gcc' and 'clang' were one side, labelled 'gcc'
        assertThatThrownBy(() -> formats.parse("metric,value,variant\nt,1,gcc\nt,2,gcc\nt,9,clang\n", UploadFormat.CSV,
                "with", null)).isInstanceOf(InvalidUploadException.class)
                .hasMessage("CSV line 4, field 3 (variant): 'clang' would be the side 'with' that line 2 calls 'gcc'; "
                        + "a file holds two sides at most: 'without' (or 'base', 'baseline') and 'with' (or one "
                        + "label).");
        // the plain names beside a label of the same side are that side
        ParsedUpload upload = formats.parse("metric,value,variant\nt,1,gcc\nt,2,with\nt,3,baseline\nt,4,without\n",
                UploadFormat.CSV, "with", null);
        assertThat(upload.variants().get("with").label()).isEqualTo("gcc");
        assertThat(upload.variants().get("with").metrics().get("t").values()).containsExactly(1.0, 2.0);
        assertThat(upload.variants().get("without").metrics().get("t").values()).containsExactly(3.0, 4.0);
    }

    @Test
    void anUnclosedQuoteIsNamedByTheLineWhereItsFieldBegan() {
        // was "cannot be read at line 4" of a 3-line file: the line after the last, where the reader ran out
        assertThatThrownBy(() -> new UploadFormats().parse("metric,value\nt,1\n\"t,2\n", UploadFormat.CSV, "with",
                null)).isInstanceOf(InvalidUploadException.class).hasMessage("The CSV cannot be read: the quoted field "
                + "that begins on line 3 has no closing quote (a quote inside a quoted field is written \"\").");
    }

    /**
     * A control character beside a field or after a closing quote was taken for a space and dropped: "cpu" and a
     * U+0001 was stored as metric "cpu", and "1" with a U+0002 after its quote as 1. Each is refused, naming its
     * line and column, with lines ending in CR, LF or both counted alike; one within a field's text is left to the
     * validator, which names the field.
     */
    @Test
    void aControlCharacterIsRefusedWhereverItStandsNotDropped() {
        String[][] cases = {
            {"metric,value\nt\u0001,1\n", "line 2: column 2 holds the control character U+0001"},
            {"metric,value\r\nt,\"1\"\u0002\r\n", "line 2: column 6 holds the control character U+0002"},
            {"metric,value\rt,1\r\u001Ft,2\r", "line 3: column 1 holds the control character U+001F"},
            {"metric,value\nt,1\n\"t\u0000\",2\n", "line 3: column 3 holds the control character U+0000"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> values(c[0])).as(c[0]).isInstanceOf(InvalidUploadException.class)
                    .hasMessage("The CSV cannot be read at " + c[1] + " beside a field, where the reader would "
                            + "take it for a space and drop it.");
        }
        assertThat(values("metric,value\r\nt,1\r\nt,2\n")).containsExactly(1.0, 2.0);
        // within a field's text it is kept, and the validator names the field
        assertThat(formats.parse("metric,value\nt\u0001x,1\n", UploadFormat.CSV, "with", null).variants()
                .get("with").metrics()).containsOnlyKeys("t\u0001x");
        // a run of them is looked at once: a quadratic scan of a million took hours
        String run = "metric,value\nt" + "\u0001".repeat(1_000_000) + "x,1\n";
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(5), () -> formats.parse(run, UploadFormat.CSV, "with",
                null));
    }

    @Test
    void textAfterAQuotedFieldsClosingQuoteIsRefusedInTheFilesTerms() {
        // was the reader's words: "Unexpected character ('x' (code 120)): Expected column separator character (','
        // (code 44)) or end-of-line"
        assertThatThrownBy(() -> values("metric,value\nt,\"1\"x\n")).isInstanceOf(InvalidUploadException.class)
                .hasMessage("The CSV cannot be read at line 2: a quoted field's closing quote is followed by 'x', "
                        + "where a ',' or the line's end belongs (a quote inside a quoted field is written \"\").");
    }

    /**
     * A header that begins as this format's but whose second column is not 'value': it was "not in the format 'csv'
     * … found text starting 'metric,value9' (it looks like csv)".
     */
    @Test
    void aHeaderWhoseSecondColumnIsNotValueIsRefusedNamingIt() {
        assertThatThrownBy(() -> values("metric,value9\nt,1\n")).isInstanceOf(InvalidUploadException.class)
                .hasMessage("CSV header (line 1), field 2: 'value9' is not 'value'; the header is "
                        + "metric,value[,variant][,unit].");
        assertThatThrownBy(() -> values("metric\nt\n")).hasMessage("CSV header (line 1), field 2: there is none; "
                + "the header is metric,value[,variant][,unit].");
        assertThatThrownBy(() -> values("name,value\nt,1\n")).isInstanceOf(UploadFormatException.class)
                .hasMessageStartingWith("The upload is not in the format 'csv'");
    }
}
