package io.perflab.upload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.dataformat.csv.CsvMapper;
import tools.jackson.dataformat.csv.CsvReadFeature;

/**
 * CSV (RFC 4180, read with Jackson's CSV parser) with a header {@code metric,value[,variant][,unit]}: one value per
 * row. {@code variant} is {@code with}, {@code without} or a label (stored as {@code with}); an empty or missing
 * variant is the upload's side. A second label of one side is refused: its rows would be pooled with the first's.
 * A unit that is a rate ({@code ops/s}, {@code MB/s}, {@code req/sec}) makes the metric higher-is-better, as in the
 * other formats; otherwise the metric's known definition decides, else lower is better. Values follow
 * {@link DecimalNumbers}' grammar; spaces around fields are ignored.
 */
final class CsvAdapter implements FormatAdapter {

    private static final List<String> COLUMNS = List.of("metric", "value", "variant", "unit");

    /**
     * The reader's words for a character after a quoted field's closing quote (a control character, which it would
     * read as white space and drop, is refused before it reads: {@link #refuseControlCharacters}).
     */
    private static final Pattern AFTER_QUOTE = Pattern.compile(
            "Unexpected character \\('(.+?)' \\(code \\d+\\)\\): Expected column separator");

    private static final CsvMapper CSV = CsvMapper.builder()
            .enable(CsvReadFeature.TRIM_SPACES)
            .enable(CsvReadFeature.SKIP_EMPTY_LINES)
            .build();

    /** One record and the line it starts on. */
    private record Row(int line, List<String> fields) {

        String field(int column) {
            return column >= 0 && column < fields.size() ? fields.get(column) : "";
        }
    }

    @Override
    public UploadFormat format() {
        return UploadFormat.CSV;
    }

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        Map<String, SampleCollector> sides = new LinkedHashMap<>();
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, Row> labelled = new LinkedHashMap<>();
        List<String> header = null;
        refuseControlCharacters(content);
        try (JsonParser parser = CSV.createParser(content)) {
            for (Row row = next(parser); row != null; row = next(parser)) {
                if (header == null) {
                    header = header(row, content);
                    continue;
                }
                if (row.fields().size() > header.size()) {
                    throw new InvalidUploadException("CSV line " + row.line() + " has " + row.fields().size()
                            + " fields; the header has " + header.size() + " (" + String.join(",", header) + ").");
                }
                String metric = row.field(0);
                if (metric.isEmpty()) {
                    throw new InvalidUploadException("CSV line " + row.line() + ", field 1 (metric): the metric "
                            + "name is empty.");
                }
                double value = value(row, metric);
                int variantColumn = header.indexOf("variant");
                String rowVariant = row.field(variantColumn);
                String side = rowVariant.isEmpty() ? variant : Variants.side(rowVariant);
                String sideLabel = rowVariant.isEmpty() ? label : Variants.label(rowVariant);
                if (sideLabel != null) {
                    Row first = labelled.putIfAbsent(side, row);
                    String earlier = labels.putIfAbsent(side, sideLabel);
                    if (earlier != null && !earlier.equals(sideLabel)) {
                        throw new InvalidUploadException("CSV line " + row.line() + ", field " + (variantColumn + 1)
                                + " (variant): '" + UploadText.excerpt(sideLabel) + "' would be the side '" + side
                                + "' that line " + first.line() + " calls '" + UploadText.excerpt(earlier) + "'; a "
                                + "file holds two sides at most: 'without' (or 'base', 'baseline') and 'with' (or "
                                + "one label).");
                    }
                }
                String unit = row.field(header.indexOf("unit"));
                unit = unit.isEmpty() ? null : unit;
                sides.computeIfAbsent(side, s -> new SampleCollector(limits))
                        .add(metric, unit, SampleCollector.higherIfRate(unit), value, "CSV line " + row.line());
            }
        } catch (JacksonException e) {
            Integer quoted = unclosedQuote(content);
            if (quoted != null) {
                // the reader says the line after the file's last, where it ran out looking for the closing quote
                throw new InvalidUploadException("The CSV cannot be read: the quoted field that begins on line "
                        + quoted + " has no closing quote (a quote inside a quoted field is written \"\").");
            }
            String line = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
            Matcher after = AFTER_QUOTE.matcher(JsonContent.firstLine(e.getOriginalMessage()));
            if (after.lookingAt()) {
                throw new InvalidUploadException("The CSV cannot be read" + line + ": a quoted field's closing "
                        + "quote is followed by '" + after.group(1) + "', where a ',' or the line's end belongs (a "
                        + "quote inside a quoted field is written \"\").");
            }
            throw new InvalidUploadException("The CSV cannot be read" + line + ": "
                    + JsonContent.firstLine(e.getOriginalMessage()) + ".");
        }
        if (header == null) {
            throw UploadFormats.wrongFormat(UploadFormat.CSV, content);
        }
        if (sides.isEmpty()) {
            throw new InvalidUploadException("The CSV has a header but no rows.");
        }
        Map<String, VariantSamples> variants = new LinkedHashMap<>();
        for (String side : List.of(ParsedUpload.WITHOUT, ParsedUpload.WITH)) {
            if (sides.containsKey(side)) {
                variants.put(side, new VariantSamples(labels.get(side), sides.get(side).metrics()));
            }
        }
        return new ParsedUpload(null, null, variants, null, null, null);
    }

    /** The next record that is not blank, or null at the end. */
    private static Row next(JsonParser parser) {
        while (parser.nextToken() == JsonToken.START_ARRAY) {
            int line = -1;
            List<String> fields = new ArrayList<>();
            while (parser.nextToken() == JsonToken.VALUE_STRING) {
                if (fields.isEmpty()) {
                    // the array starts where the previous record ended; its first field is on the record's line
                    line = parser.currentTokenLocation().getLineNr();
                }
                fields.add(parser.getString());
            }
            if (fields.stream().anyMatch(f -> !f.isEmpty())) {
                return new Row(line, fields);
            }
        }
        return null;
    }

    /** The header's column names, lower case; refuses a header that is not this format's. */
    private static List<String> header(Row row, String content) {
        List<String> names = row.fields().stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
        if (!names.get(0).equals("metric")) {
            throw UploadFormats.wrongFormat(UploadFormat.CSV, content);
        }
        if (names.size() < 2 || !names.get(1).equals("value")) {
            // a header that begins as this format's was "not in the format 'csv' … found text starting
            // 'metric,value9' (it looks like csv)"
            throw new InvalidUploadException("CSV header (line " + row.line() + "), field 2: " + (names.size() < 2
                    ? "there is none" : "'" + row.fields().get(1) + "' is not 'value'") + "; the header is "
                    + "metric,value[,variant][,unit].");
        }
        for (int i = 2; i < names.size(); i++) {
            String name = names.get(i);
            if (!COLUMNS.contains(name) || names.indexOf(name) != i) {
                throw new InvalidUploadException("CSV header (line " + row.line() + "), field " + (i + 1) + ": '"
                        + row.fields().get(i) + "' is " + (COLUMNS.contains(name) ? "a repeated column" : "not a "
                        + "column of this format") + "; the header is metric,value[,variant][,unit].");
            }
        }
        return names;
    }

    private static double value(Row row, String metric) {
        String text = row.field(1);
        Double value = DecimalNumbers.parse(text);
        if (value == null) {
            throw new InvalidUploadException("CSV line " + row.line() + ", field 2 (value) of metric '"
                    + UploadText.excerpt(metric) + "': "
                    + (text.isEmpty() ? "no value" : "'" + UploadText.excerpt(text) + "' is not a number")
                    + "; a value is a decimal such as 12, -0.5 or 1.2e-3 (no suffixes such as 1d, no hex, NaN or "
                    + "Infinity).");
        }
        if (value.isInfinite()) {
            throw new InvalidUploadException("CSV line " + row.line() + ", field 2 (value) of metric '"
                    + UploadText.excerpt(metric) + "': " + DecimalNumbers.beyondRange(text) + ".");
        }
        return value;
    }

    /**
     * Refuses a control character other than a tab or a line break where the reader would drop it, naming its line
     * and column: with only white space or other control characters between it and a field's start or end, or a
     * quote, the reader takes it for white space, so that a U+0001 after {@code cpu} in a row's first field was
     * stored as metric {@code cpu} without a word. One within a field's text is kept, and the validator names the
     * field it is in. Each run of such characters is looked at once, so the time is linear in the content.
     */
    private static void refuseControlCharacters(String content) {
        int line = 1;
        int lineStart = 0;
        int i = 0;
        while (i < content.length()) {
            char c = content.charAt(i);
            if (c == '\n' || c == '\r') {
                i += c == '\r' && i + 1 < content.length() && content.charAt(i + 1) == '\n' ? 2 : 1;
                line++;
                lineStart = i;
                continue;
            }
            if (!blank(c)) {
                i++;
                continue;
            }
            int end = i;
            int control = -1;
            for (; end < content.length() && blank(content.charAt(end)); end++) {
                char b = content.charAt(end);
                if (control < 0 && b != ' ' && b != '\t') {
                    control = end;
                }
            }
            boolean edge = i == 0 || fieldEdge(content.charAt(i - 1)) || end == content.length()
                    || fieldEdge(content.charAt(end));
            if (control >= 0 && edge) {
                throw new InvalidUploadException(String.format(Locale.ROOT, "The CSV cannot be read at line %d: "
                        + "column %d holds the control character U+%04X beside a field, where the reader would take "
                        + "it for a space and drop it.", line, control - lineStart + 1, (int) content.charAt(control)));
            }
            i = end;
        }
    }

    /** A space, a tab or a control character other than a line break: what the reader trims beside a field. */
    private static boolean blank(char c) {
        return c <= ' ' && c != '\n' && c != '\r';
    }

    /** What a field begins or ends at: a separator, a quote or a line break. */
    private static boolean fieldEdge(char c) {
        return c == ',' || c == '"' || c == '\n' || c == '\r';
    }

    /** The line where a quoted field begins that the content ends inside, by RFC 4180; null if there is none. */
    private static Integer unclosedQuote(String content) {
        int line = 1;
        Integer opened = null;
        boolean fieldStart = true;
        for (int i = 0; i < content.length(); i++) {
            char c = content.charAt(i);
            if (opened != null) {
                if (c == '"' && i + 1 < content.length() && content.charAt(i + 1) == '"') {
                    i++;
                } else if (c == '"') {
                    opened = null;
                }
            } else if (c == '"' && fieldStart) {
                opened = line;
            }
            if (c == '\n') {
                line++;
            }
            boolean blank = c == ' ' || c == '\t';
            fieldStart = opened == null && (c == ',' || c == '\n' || c == '\r' || fieldStart && blank);
        }
        return opened;
    }
}
