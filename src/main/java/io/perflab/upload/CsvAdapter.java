package io.perflab.upload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CSV with a header {@code metric,value[,variant][,unit]}: one value per row. {@code variant} is {@code with},
 * {@code without} or a label (stored as {@code with}); an empty or missing variant is the upload's side. Fields
 * may be double-quoted.
 */
final class CsvAdapter implements FormatAdapter {

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        List<String> lines = content.lines().toList();
        int headerIndex = 0;
        while (headerIndex < lines.size() && lines.get(headerIndex).isBlank()) {
            headerIndex++;
        }
        if (headerIndex == lines.size()) {
            throw UploadFormats.wrongFormat(UploadFormat.CSV, content);
        }
        List<String> header = fields(lines.get(headerIndex)).stream()
                .map(h -> h.trim().toLowerCase(Locale.ROOT)).toList();
        if (header.size() < 2 || !header.get(0).equals("metric") || !header.get(1).equals("value")) {
            throw UploadFormats.wrongFormat(UploadFormat.CSV, content);
        }
        int variantColumn = header.indexOf("variant");
        int unitColumn = header.indexOf("unit");
        Map<String, SampleCollector> sides = new LinkedHashMap<>();
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = headerIndex + 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> row = fields(lines.get(i));
            String metric = row.get(0).trim();
            if (row.size() < 2) {
                throw new InvalidUploadException("Metric '" + metric + "' (line " + (i + 1) + "): no value.");
            }
            double value;
            try {
                value = Double.parseDouble(row.get(1).trim());
            } catch (NumberFormatException e) {
                throw new InvalidUploadException("Metric '" + metric + "' (line " + (i + 1) + "): '" + row.get(1).trim()
                        + "' is not a number.");
            }
            String rowVariant = variantColumn >= 0 && variantColumn < row.size() ? row.get(variantColumn).trim() : "";
            String side = rowVariant.isEmpty() ? variant : Variants.side(rowVariant);
            String sideLabel = rowVariant.isEmpty() ? label : Variants.label(rowVariant);
            if (sideLabel != null) {
                labels.putIfAbsent(side, sideLabel);
            }
            String unit = unitColumn >= 0 && unitColumn < row.size() && !row.get(unitColumn).isBlank()
                    ? row.get(unitColumn).trim() : null;
            sides.computeIfAbsent(side, s -> new SampleCollector(limits)).add(metric, unit, null, value);
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

    /** Splits one CSV line; quotes group commas and {@code ""} is a quote. */
    static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }
}
