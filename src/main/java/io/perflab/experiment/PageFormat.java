package io.perflab.experiment;

import io.perflab.display.Format;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Display;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriUtils;

/**
 * The display rules ({@link Format}) for templates, which reach them as {@code ${@fmt.pValue(c.tests.pValue)}};
 * the pages and the exported HTML report both print through it. Only the links of pages are its own.
 */
@Component("fmt")
public class PageFormat {

    public String time(Instant instant) {
        return Format.time(instant);
    }

    public String value(Double v) {
        return Format.value(v);
    }

    public String pValue(Double p) {
        return Format.pValue(p);
    }

    public String percent(Double v) {
        return Format.percent(v);
    }

    /** A change's interval in percent; a missing bound is unbounded. */
    public String interval(Double low, Double high) {
        return Format.percentInterval(low, high);
    }

    /** An interval of values, such as the difference's. */
    public String valueInterval(Double low, Double high) {
        return Format.interval(low, high);
    }

    public String statistic(Double v) {
        return Format.statistic(v);
    }

    public String detectable(Double percent) {
        return Format.detectable(percent);
    }

    /** The windows per pair for the next run ({@link Format#nextRun}); {@code —} when unknown. */
    public String nextRun(MetricComparison.NextRun n) {
        return n == null ? Format.MISSING : Format.nextRun(n.windowsPerPair(), n.pairs(), n.mdePercent(),
                n.thisWindowsPerPair(), n.thisDesignMdePercent(), n.kaliberaJonesWindowsPerPair(),
                n.betweenPairsClamped());
    }

    public String runs(Long n) {
        return Format.runs(n);
    }

    public String count(long n, String singular, String plural) {
        return Format.count(n, singular, plural);
    }

    /** The confidence level of the experiments' intervals: {@code 95%}. */
    public String level() {
        return Display.level(ComparisonOptions.defaults().confidenceLevel());
    }

    public String metricWithUnit(String metric, String unit) {
        return Format.metricWithUnit(metric, unit);
    }

    /** A person's text set apart from what surrounds it, for a page's title ({@link Format#isolated}). */
    public String isolated(String text) {
        return Format.isolated(text);
    }

    public String block(String text) {
        return Format.block(text);
    }

    /**
     * The page of a benchmark's history: by name where the name can travel in a URL path, else by the id of one
     * of its experiments, so that every stored name can be opened (a path with {@code %}, {@code \}, {@code ;},
     * an encoded slash or a control character is refused by the server's firewall, and rightly so).
     */
    public String benchmarkPath(String name, long experimentId) {
        boolean plain = name.codePoints().noneMatch(c -> c == '%' || c == '\\' || c == ';' || Character.isISOControl(c))
                && Arrays.stream(name.split("/", -1))
                        .noneMatch(s -> s.isEmpty() || s.equals(".") || s.equals(".."));
        return plain ? benchmarkPath(name) : "/benchmarks?experiment=" + experimentId;
    }

    /**
     * The page of a benchmark: {@code /benchmarks/} and its name with each segment encoded on its own, so names with
     * a slash (Go package paths) keep their slashes and anything else is escaped.
     */
    public String benchmarkPath(String name) {
        return "/benchmarks/" + Arrays.stream(name.split("/", -1))
                .map(segment -> UriUtils.encodePathSegment(segment, StandardCharsets.UTF_8))
                .collect(Collectors.joining("/"));
    }
}
