package io.perflab.upload;

import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * hyperfine's {@code --export-json}: each command's {@code times} (seconds) are the samples of metric
 * {@code time}; {@code user} and {@code system} become {@code user_time}/{@code system_time} when they are
 * per-run lists. hyperfine 1.x exports them as means only, and one number is not a sample, so those are skipped.
 * One command is one side of an upload; two commands are {@code without} and {@code with}, in that order.
 */
final class HyperfineAdapter implements FormatAdapter {

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        JsonNode root = JsonContent.read(content);
        JsonNode results = root.isObject() ? root.get("results") : null;
        if (results == null || !results.isArray() || results.isEmpty() || !results.get(0).has("times")) {
            throw UploadFormats.wrongFormat(UploadFormat.HYPERFINE, content);
        }
        if (results.size() > 2) {
            throw new InvalidUploadException("The hyperfine export has " + results.size() + " commands; an upload "
                    + "compares two (the first is 'without', the second 'with'). Export each pair separately.");
        }
        Map<String, VariantSamples> variants = new LinkedHashMap<>();
        for (int i = 0; i < results.size(); i++) {
            JsonNode result = results.get(i);
            String command = NativeJsonAdapter.text(result, "command");
            SampleCollector samples = new SampleCollector(limits);
            add(samples, "time", result.get("times"));
            add(samples, "user_time", result.get("user"));
            add(samples, "system_time", result.get("system"));
            String side = results.size() == 1 ? variant : i == 0 ? ParsedUpload.WITHOUT : ParsedUpload.WITH;
            variants.put(side, new VariantSamples(results.size() == 1 && label != null ? label : command,
                    samples.metrics()));
        }
        String benchmark = results.size() == 1 ? NativeJsonAdapter.text(results.get(0), "command") : null;
        return new ParsedUpload(benchmark, null, variants, null, null, null);
    }

    private static void add(SampleCollector samples, String key, JsonNode values) {
        if (values == null || !values.isArray()) {
            return;
        }
        for (JsonNode value : values) {
            if (!value.isNumber()) {
                throw new InvalidUploadException("Metric '" + key + "': " + value + " is not a number.");
            }
            samples.add(key, "s", false, value.doubleValue());
        }
    }
}
