package io.perflab.stats.format;

import io.perflab.stats.RankSumResult;
import io.perflab.stats.RFormat;
import io.perflab.stats.TTest;
import io.perflab.stats.TTestResult;
import java.util.ArrayList;
import java.util.List;

/**
 * R's {@code print.htest} at the default {@code digits = 7}, character for character, for the t-tests (Welch,
 * Student, paired, one-sample) and the rank-sum test of {@code with} against {@code without}: statistic and df with 5
 * significant digits, {@code format.pval} with 4, interval and estimates with 7, wrapped as {@code strwrap} at 72
 * columns and named vectors printed as R does within 80 columns.
 *
 * @see <a href="https://github.com/wch/r-source/blob/trunk/src/library/stats/R/htest.R">R source,
 *     stats/R/htest.R ({@code print.htest})</a>
 */
public final class HtestPrinter {

    private static final int DIGITS = 7;
    private static final int WIDTH = 80;

    private HtestPrinter() {
    }

    /**
     * {@code print(t.test(with, without, ...))} with the data named {@code with} and {@code without}; for a paired
     * result R 4.2's {@code t.test(with, without, paired = TRUE)} ("mean difference"), for a one-sample result
     * {@code t.test(x)}.
     */
    public static String tTest(TTestResult r) {
        return TTest.ONE_SAMPLE_METHOD.equals(r.method()) ? tTest(r, "x", null) : tTest(r, "with", "without");
    }

    /** {@code print(t.test(x, y, ...))} with the given names of the data ({@code yName} null for one sample). */
    public static String tTest(TTestResult r, String xName, String yName) {
        boolean oneSample = TTest.ONE_SAMPLE_METHOD.equals(r.method());
        StringBuilder b = new StringBuilder();
        header(b, r.method(), oneSample ? xName : xName + " and " + yName);
        List<String> out = new ArrayList<>();
        out.add("t = " + RFormat.format(r.t(), DIGITS - 2));
        out.add("df = " + RFormat.format(r.df(), DIGITS - 2));
        out.add(pValue(r.pValue()));
        strwrap(b, String.join(", ", out));
        String parameter = oneSample ? "mean" : r.paired() ? "mean difference" : "difference in means";
        b.append("alternative hypothesis: true ").append(parameter).append(" is ").append(r.alternative().phrase())
                .append(" 0\n");
        interval(b, r.confidenceLevel(), r.ciLow(), r.ciHigh());
        b.append("sample estimates:\n");
        if (oneSample) {
            namedVector(b, new String[] {"mean of x"}, new double[] {r.meanWith()});
        } else if (r.paired()) {
            namedVector(b, new String[] {"mean difference"}, new double[] {r.difference()});
        } else {
            namedVector(b, new String[] {"mean of x", "mean of y"}, new double[] {r.meanWith(), r.meanWithout()});
        }
        b.append('\n');
        return b.toString();
    }

    /** {@code print(wilcox.test(with, without, conf.int = TRUE, ...))}. */
    public static String rankSum(RankSumResult r) {
        StringBuilder b = new StringBuilder();
        header(b, r.method(), "with and without");
        strwrap(b, "W = " + RFormat.format(r.w(), DIGITS - 2) + ", " + pValue(r.pValue()));
        b.append("alternative hypothesis: true location shift is ").append(r.alternative().phrase()).append(" 0\n");
        interval(b, r.confidenceLevel(), r.ciLow(), r.ciHigh());
        b.append("sample estimates:\n");
        namedVector(b, new String[] {"difference in location"}, new double[] {r.estimate()});
        b.append('\n');
        return b.toString();
    }

    private static void header(StringBuilder b, String method, String dataName) {
        b.append('\n').append('\t').append(method.strip()).append("\n\n");
        b.append("data:  ").append(dataName).append('\n');
    }

    private static String pValue(double p) {
        String fp = RFormat.formatPValue(p, DIGITS - 3);
        return "p-value " + (fp.startsWith("<") ? fp : "= " + fp);
    }

    private static void interval(StringBuilder b, double level, double low, double high) {
        String[] bounds = RFormat.format(new double[] {low, high}, DIGITS);
        b.append(RFormat.format(100 * level, DIGITS).strip()).append(" percent confidence interval:\n")
                .append(' ').append(bounds[0]).append(' ').append(bounds[1]).append('\n');
    }

    /** {@code strwrap(text)} at 0.9 × 80 columns: greedy, lines shorter than 72 characters. */
    private static void strwrap(StringBuilder b, String text) {
        int limit = (int) (0.9 * WIDTH);
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() >= limit) {
                b.append(line).append('\n');
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        b.append(line).append('\n');
    }

    /** R's print of a named numeric vector: right-justified columns of common width, each followed by a blank. */
    static void namedVector(StringBuilder b, String[] names, double[] values) {
        String[] formatted = RFormat.format(values, DIGITS);
        int w = formatted[0].length();
        for (String name : names) {
            w = Math.max(w, name.length());
        }
        int perLine = Math.max(1, WIDTH / (w + 1));
        for (int start = 0; start < values.length; start += perLine) {
            int end = Math.min(values.length, start + perLine);
            for (int i = start; i < end; i++) {
                b.append(RFormat.pad(names[i], w)).append(' ');
            }
            b.append('\n');
            for (int i = start; i < end; i++) {
                b.append(RFormat.pad(formatted[i], w)).append(' ');
            }
            b.append('\n');
        }
    }
}
