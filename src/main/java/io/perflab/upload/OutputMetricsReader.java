package io.perflab.upload;

import io.perflab.runner.experiment.MetricsReader;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.ParsedMetric;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * Reads what a command trial printed with the upload adapters: the formats {@code POST /api/v1/uploads} takes, the
 * same metric keys, units and directions, the same checks and the same messages. The output must describe one side
 * (one run of one command); its configuration (rpc-bench's mode and threads…), machine details and warnings become
 * the reading's details. The service's scheduler and {@code perflab ab --metrics} both use it.
 */
@Component
public final class OutputMetricsReader implements MetricsReader {

    /** The benchmark name validation requires of output that names none; not stored. */
    private static final String UNNAMED = "command output";

    private final UploadFormats formats = new UploadFormats();

    @Override
    public Set<String> formats() {
        Set<String> labels = new LinkedHashSet<>();
        Arrays.stream(UploadFormat.values()).forEach(format -> labels.add(format.label()));
        return labels;
    }

    @Override
    public java.util.Optional<String> negativeRefusal(String format, String key, String unit) {
        return UploadFormat.byLabel(format).map(chosen -> formats.adapter(chosen).negativeRefusal(key, unit));
    }

    @Override
    public Reading read(String format, String output) {
        UploadFormat chosen = UploadFormat.byLabel(format).orElseThrow(() -> new IllegalArgumentException(
                "unknown metrics format '" + format + "'; one of " + UploadFormat.labels()));
        ValidUpload valid;
        try {
            ParsedUpload parsed = formats.parse(output, chosen, ParsedUpload.WITHOUT, null);
            if (parsed.variants().size() != 1) {
                throw new InvalidUploadException("The output holds both sides, 'without' and 'with'; a command's "
                        + "output must describe one run of one command.");
            }
            valid = UploadValidator.validate(parsed, UNNAMED, null, GitInfo.NONE, Map.of(), JsonContent.MAPPER);
        } catch (UploadContentException | JsonContent.MalformedJsonException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        VariantSamples side = valid.parsed().variants().values().iterator().next();
        Map<String, ParsedMetric> metrics = new LinkedHashMap<>();
        side.metrics().forEach((key, samples) -> metrics.put(key, new ParsedMetric(samples.unit(),
                samples.higherIsBetter() != null ? samples.higherIsBetter() : !MetricKeys.lowerIsBetter(key),
                samples.values())));
        Map<String, String> details = new LinkedHashMap<>(side.configuration());
        valid.parsed().machine().forEach((name, value) -> details.putIfAbsent(name, String.valueOf(value)));
        if (!valid.parsed().warnings().isEmpty()) {
            details.put("warnings", String.join("\n", valid.parsed().warnings()));
        }
        return new Reading(metrics, details);
    }
}
