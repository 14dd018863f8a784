package io.perflab.experiment;

import io.perflab.stats.Display;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriUtils;

/**
 * How pages print numbers and times ({@code ${@fmt.pValue(c.pValue)}} in templates). Delegates to the statistics
 * package's {@link Display} so pages, CLI and reports agree; a missing value prints as an en dash.
 */
@Component("fmt")
public class PageFormat {

    private static final String MISSING = "–";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    public String time(Instant instant) {
        return instant == null ? MISSING : TIME.format(instant);
    }

    public String value(Double v) {
        return v == null ? MISSING : Display.value(v);
    }

    public String pValue(Double p) {
        return p == null ? MISSING : Display.pValue(p);
    }

    public String percent(Double v) {
        return v == null ? MISSING : Display.percent(v);
    }

    public String interval(Double low, Double high) {
        return low == null || high == null ? MISSING : Display.percentInterval(low, high);
    }

    /** t and df as R prints them in the t.test header: 5 significant digits. */
    public String statistic(Double v) {
        return v == null ? MISSING : String.format(java.util.Locale.ROOT, "%.5g", v);
    }

    /**
     * The page of a benchmark: {@code /benchmarks/} and its name with each segment encoded on its own, so names with
     * a slash (Go package paths) keep their slashes and anything else is escaped.
     */
    /**
     * The page of a benchmark's history: by name where the name can travel in a URL path, else by the id of one
     * of its experiments, so that every stored name can be opened (a path with {@code %}, {@code \}, {@code ;},
     * an encoded slash or a control character is refused by the server's firewall, and rightly so).
     */
    public String benchmarkPath(String name, long experimentId) {
        boolean plain = name.codePoints().noneMatch(c -> c == '%' || c == '\\' || c == ';' || Character.isISOControl(c))
                && java.util.Arrays.stream(name.split("/", -1))
                        .noneMatch(s -> s.isEmpty() || s.equals(".") || s.equals(".."));
        return plain ? benchmarkPath(name) : "/benchmarks?experiment=" + experimentId;
    }

    public String benchmarkPath(String name) {
        return "/benchmarks/" + java.util.Arrays.stream(name.split("/", -1))
                .map(segment -> UriUtils.encodePathSegment(segment, StandardCharsets.UTF_8))
                .collect(java.util.stream.Collectors.joining("/"));
    }

    public String runs(Long n) {
        return n == null ? MISSING : n >= io.perflab.stats.Power.MAX_RUNS ? "> 1,000,000" : String.format("%,d", n);
    }
}
