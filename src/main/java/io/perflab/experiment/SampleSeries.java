package io.perflab.experiment;

import io.perflab.runner.experiment.VariantName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A recorded experiment's samples packed as the {@code sample_series} table of {@code V11} holds them: per side and
 * metric, the values of consecutive runs in blocks of at most {@value #BLOCK_SIZE}, each block text of the values
 * as {@link Double#toString(double)} writes them, comma-separated, so that reading them back gives the same doubles.
 *
 * <p>One row per block instead of one per run and metric is what makes an upload cheap to store: a 600-sample upload
 * of 12 metrics is 12 rows.
 *
 * @param variant the side
 * @param metric the metric key
 * @param block the block's index among the side's blocks of this metric, from 0
 * @param firstOrdinal the ordinal of the run the first value belongs to; value {@code i} belongs to run
 *     {@code firstOrdinal + i}
 * @param values the values, at least one and at most {@value #BLOCK_SIZE}
 */
public record SampleSeries(String variant, String metric, int block, int firstOrdinal, double[] values) {

    /** Values per block: 4,096 values of at most 24 characters and their commas fit the column's 110,000. */
    public static final int BLOCK_SIZE = 4096;

    public SampleSeries {
        if (values.length == 0 || values.length > BLOCK_SIZE) {
            throw new IllegalArgumentException("A block holds 1 to " + BLOCK_SIZE + " values, not " + values.length);
        }
    }

    /**
     * Packs runs into blocks: per side and metric (in key order), the values of runs of consecutive ordinals; a run
     * without the metric, or a gap in the ordinals, starts a new block.
     */
    public static List<SampleSeries> pack(List<RecordedExperiment.Run> runs) {
        // side → metric → ordinal → value, all in order
        Map<VariantName, Map<String, TreeMap<Integer, Double>>> bySide = new TreeMap<>();
        for (RecordedExperiment.Run run : runs) {
            Map<String, TreeMap<Integer, Double>> metrics = bySide.computeIfAbsent(run.variant(), k -> new TreeMap<>());
            run.samples().forEach((key, value) -> metrics.computeIfAbsent(key, k -> new TreeMap<>())
                    .put(run.ordinal(), value));
        }
        List<SampleSeries> series = new ArrayList<>();
        bySide.forEach((side, metrics) -> metrics.forEach((key, values) -> {
            int block = 0;
            int first = -1;
            int previous = -1;
            List<Double> current = new ArrayList<>();
            for (Map.Entry<Integer, Double> e : values.entrySet()) {
                if (!current.isEmpty() && (e.getKey() != previous + 1 || current.size() == BLOCK_SIZE)) {
                    series.add(new SampleSeries(side.label(), key, block++, first, toArray(current)));
                    current.clear();
                }
                if (current.isEmpty()) {
                    first = e.getKey();
                }
                current.add(e.getValue());
                previous = e.getKey();
            }
            series.add(new SampleSeries(side.label(), key, block, first, toArray(current)));
        }));
        return series;
    }

    /** The values as the column holds them. */
    public String text() {
        StringBuilder text = new StringBuilder(values.length * 20);
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(values[i]);
        }
        return text.toString();
    }

    /**
     * The values of a stored block.
     *
     * @throws IllegalStateException if the text is not {@code count} comma-separated numbers: the row was damaged
     */
    public static double[] values(String text, int count) {
        double[] values = new double[count];
        int start = 0;
        for (int i = 0; i < count; i++) {
            int end = text.indexOf(',', start);
            if (end < 0) {
                end = text.length();
            }
            if (end == start || (i == count - 1) != (end == text.length())) {
                throw new IllegalStateException("A stored block of " + count + " samples does not hold " + count
                        + " values");
            }
            try {
                values[i] = Double.parseDouble(text.substring(start, end));
            } catch (NumberFormatException e) {
                throw new IllegalStateException("A stored block of samples holds '" + text.substring(start, end)
                        + "', not a number", e);
            }
            start = end + 1;
        }
        return values;
    }

    private static double[] toArray(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
