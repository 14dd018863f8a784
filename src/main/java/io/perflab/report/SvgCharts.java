package io.perflab.report;

import io.perflab.stats.Display;
import io.perflab.stats.Summary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The report's charts as inline SVG, drawn on the server so that the exported file needs no script, font or
 * image from anywhere. Every chart has a {@code <title>} and a {@code <desc>} (its text alternative, next to the
 * results table), axis titles with units, and escapes every piece of text it draws, since metric names can be
 * user input.
 */
final class SvgCharts {

    static final String WITHOUT_COLOUR = "#1f6fb2";
    static final String WITH_COLOUR = "#c2410c";

    private static final String FONT = "font-family=\"system-ui, sans-serif\" font-size=\"11\"";
    private static final double JITTER_WIDTH = 34;

    private SvgCharts() {
    }

    /** One run's value of a metric, for the run-order plot. */
    record RunPoint(int ordinal, String variant, double value) {
    }

    /** One metric's change in percent with its interval (bounds may be null: unbounded), for the forest plot. */
    record ForestRow(String metric, Double percent, Double low, Double high, String verdict) {
    }

    /**
     * Strip plot over a box plot of the two variants' samples: each run a dot (jittered sideways by a fixed
     * sequence, so the output is reproducible), the box from the first to the third quartile with the median,
     * whiskers to the furthest values within 1.5 IQR (Tukey), and the mean as a diamond.
     */
    static String stripBox(String id, String metric, String unit, double[] without, double[] with) {
        double width = 340;
        double height = 280;
        Frame f = new Frame(width, height, 72, 14, 18, 46);
        double[] all = concat(without, with);
        Scale y = Scale.of(all, f.bottom(), f.top);
        StringBuilder s = open(id, width, height, metric + ": samples of without and with",
                describeSamples(metric, unit, without, with));
        yAxis(s, f, y, ReportFormat.metricWithUnit(metric, unit));
        double[] centres = {f.left + f.plotWidth() * 0.27, f.left + f.plotWidth() * 0.73};
        double[][] groups = {without, with};
        String[] names = {ExperimentReport.WITHOUT, ExperimentReport.WITH};
        String[] colours = {WITHOUT_COLOUR, WITH_COLOUR};
        for (int g = 0; g < 2; g++) {
            double cx = centres[g];
            s.append("<text x=\"").append(n(cx)).append("\" y=\"").append(n(f.bottom() + 16))
                    .append("\" text-anchor=\"middle\" ").append(FONT).append('>').append(names[g]).append(" (n = ")
                    .append(groups[g].length).append(")</text>");
            if (groups[g].length == 0) {
                continue;
            }
            box(s, groups[g], cx, y, colours[g]);
            for (int i = 0; i < groups[g].length; i++) {
                double x = cx + jitter(i);
                marker(s, names[g], x, y.at(groups[g][i]), colours[g],
                        names[g] + ": " + Display.value(groups[g][i]).strip());
            }
            double mean = Summary.of(groups[g], names[g]).mean();
            double my = y.at(mean);
            s.append("<path d=\"M").append(n(cx + 30)).append(',').append(n(my - 5)).append(" l5,5 l-5,5 l-5,-5 z\"")
                    .append(" fill=\"#fff\" stroke=\"#111\"><title>mean of ").append(names[g]).append(": ")
                    .append(Display.value(mean).strip()).append("</title></path>");
        }
        xTitle(s, f, "variant");
        return s.append("</svg>").toString();
    }

    /** Each run's value against its position in the plan, coloured by variant: shows drift and warmup. */
    static String runOrder(String id, String metric, String unit, List<RunPoint> points) {
        double width = 420;
        double height = 280;
        Frame f = new Frame(width, height, 72, 14, 30, 40);
        Scale y = Scale.of(points.stream().mapToDouble(RunPoint::value).toArray(), f.bottom(), f.top);
        int maxOrdinal = points.stream().mapToInt(RunPoint::ordinal).max().orElse(1);
        Scale x = new Scale(0, Math.max(1, maxOrdinal), f.left + 6, f.right() - 6);
        StringBuilder s = open(id, width, height, metric + ": value by run order",
                "Each run's " + metric + " against its position in the plan, " + points.size() + " runs; "
                        + "blue circles are without, orange squares are with. A trend shows drift or warmup.");
        yAxis(s, f, y, ReportFormat.metricWithUnit(metric, unit));
        for (double tick : ticks(0, Math.max(1, maxOrdinal), 6, true)) {
            double tx = x.at(tick);
            s.append("<line x1=\"").append(n(tx)).append("\" y1=\"").append(n(f.bottom())).append("\" x2=\"")
                    .append(n(tx)).append("\" y2=\"").append(n(f.bottom() + 4)).append("\" stroke=\"#555\"/>")
                    .append("<text x=\"").append(n(tx)).append("\" y=\"").append(n(f.bottom() + 15))
                    .append("\" text-anchor=\"middle\" ").append(FONT).append('>').append((long) tick)
                    .append("</text>");
        }
        for (String variant : List.of(ExperimentReport.WITHOUT, ExperimentReport.WITH)) {
            String colour = colour(variant);
            List<RunPoint> mine = points.stream().filter(p -> p.variant().equals(variant)).toList();
            if (mine.size() > 1) {
                s.append("<polyline fill=\"none\" stroke=\"").append(colour)
                        .append("\" stroke-opacity=\"0.45\" stroke-width=\"1\" points=\"");
                for (RunPoint p : mine) {
                    s.append(n(x.at(p.ordinal()))).append(',').append(n(y.at(p.value()))).append(' ');
                }
                s.append("\"/>");
            }
            for (RunPoint p : mine) {
                marker(s, variant, x.at(p.ordinal()), y.at(p.value()), colour,
                        "run " + p.ordinal() + ", " + variant + ": " + Display.value(p.value()).strip());
            }
        }
        legend(s, f);
        xTitle(s, f, "run (position in plan order)");
        return s.append("</svg>").toString();
    }

    /**
     * Every metric's change in percent of the baseline mean with its confidence interval, against zero and the
     * equivalence margin: the whole experiment at a glance.
     */
    static String forest(String id, List<ForestRow> rows, double marginPercent, String levelText) {
        double rowHeight = 24;
        double width = 720;
        double height = 64 + rowHeight * Math.max(1, rows.size());
        Frame f = new Frame(width, height, 230, 110, 14, 46);
        List<Double> bounds = new ArrayList<>(List.of(-1.5 * marginPercent, 1.5 * marginPercent));
        for (ForestRow r : rows) {
            for (Double v : new Double[] {r.percent(), r.low(), r.high()}) {
                if (v != null && Double.isFinite(v)) {
                    bounds.add(Math.max(-100, Math.min(100, v)));
                }
            }
        }
        double lo = bounds.stream().mapToDouble(Double::doubleValue).min().orElse(-1);
        double hi = bounds.stream().mapToDouble(Double::doubleValue).max().orElse(1);
        double pad = (hi - lo) * 0.04;
        Scale x = new Scale(lo - pad, hi + pad, f.left, f.right());
        StringBuilder desc = new StringBuilder("Change of each metric's mean in percent of the without mean, with its ")
                .append(levelText).append(" confidence interval: ");
        for (ForestRow r : rows) {
            desc.append(r.metric()).append(' ').append(ReportFormat.percent(r.percent())).append(' ')
                    .append(ReportFormat.percentInterval(r.low(), r.high())).append(' ').append(r.verdict())
                    .append("; ");
        }
        StringBuilder s = open(id, width, height, "Change of every metric in percent, with confidence intervals",
                desc.toString());
        for (double tick : ticks(x.lo, x.hi, 8, false)) {
            double tx = x.at(tick);
            s.append("<line x1=\"").append(n(tx)).append("\" y1=\"").append(n(f.top)).append("\" x2=\"").append(n(tx))
                    .append("\" y2=\"").append(n(f.bottom())).append("\" stroke=\"#e5e7eb\"/>")
                    .append("<text x=\"").append(n(tx)).append("\" y=\"").append(n(f.bottom() + 15))
                    .append("\" text-anchor=\"middle\" ").append(FONT).append('>').append(tickLabel(tick))
                    .append("%</text>");
        }
        for (double m : new double[] {-marginPercent, marginPercent}) {
            s.append("<line x1=\"").append(n(x.at(m))).append("\" y1=\"").append(n(f.top)).append("\" x2=\"")
                    .append(n(x.at(m))).append("\" y2=\"").append(n(f.bottom()))
                    .append("\" stroke=\"#6b7280\" stroke-dasharray=\"4 3\"><title>equivalence margin ")
                    .append(Display.percent(m)).append("</title></line>");
        }
        s.append("<line x1=\"").append(n(x.at(0))).append("\" y1=\"").append(n(f.top)).append("\" x2=\"")
                .append(n(x.at(0))).append("\" y2=\"").append(n(f.bottom())).append("\" stroke=\"#111\"/>");
        s.append("<line x1=\"").append(n(f.left)).append("\" y1=\"").append(n(f.bottom())).append("\" x2=\"")
                .append(n(f.right())).append("\" y2=\"").append(n(f.bottom())).append("\" stroke=\"#555\"/>");
        for (int i = 0; i < rows.size(); i++) {
            ForestRow r = rows.get(i);
            double cy = f.top + rowHeight * (i + 0.5);
            s.append("<text x=\"").append(n(f.left - 8)).append("\" y=\"").append(n(cy + 4))
                    .append("\" text-anchor=\"end\" ").append(FONT).append('>').append(escape(shorten(r.metric(), 34)))
                    .append("<title>").append(escape(r.metric())).append("</title></text>");
            String colour = verdictColour(r.verdict());
            if (r.percent() == null) {
                s.append("<text x=\"").append(n(x.at(0) + 6)).append("\" y=\"").append(n(cy + 4)).append("\" ")
                        .append(FONT).append(" fill=\"#6b7280\">not comparable</text>");
            } else {
                double low = clip(r.low() == null ? Double.NEGATIVE_INFINITY : r.low(), x);
                double high = clip(r.high() == null ? Double.POSITIVE_INFINITY : r.high(), x);
                s.append("<line x1=\"").append(n(x.at(low))).append("\" y1=\"").append(n(cy)).append("\" x2=\"")
                        .append(n(x.at(high))).append("\" y2=\"").append(n(cy)).append("\" stroke=\"").append(colour)
                        .append("\" stroke-width=\"2\"/>");
                for (double end : new double[] {low, high}) {
                    s.append("<line x1=\"").append(n(x.at(end))).append("\" y1=\"").append(n(cy - 5))
                            .append("\" x2=\"").append(n(x.at(end))).append("\" y2=\"").append(n(cy + 5))
                            .append("\" stroke=\"").append(colour).append("\" stroke-width=\"2\"/>");
                }
                s.append("<circle cx=\"").append(n(x.at(clip(r.percent(), x)))).append("\" cy=\"").append(n(cy))
                        .append("\" r=\"4.5\" fill=\"").append(colour).append("\"><title>").append(escape(r.metric()))
                        .append(": ").append(ReportFormat.percent(r.percent())).append(' ')
                        .append(ReportFormat.percentInterval(r.low(), r.high())).append("</title></circle>");
            }
            s.append("<text x=\"").append(n(f.right() + 10)).append("\" y=\"").append(n(cy + 4)).append("\" ")
                    .append(FONT).append(" fill=\"").append(colour).append("\">").append(escape(r.verdict()))
                    .append("</text>");
        }
        xTitle(s, f, "Δ % of the without mean, " + levelText + " CI (Fieller); dashed: ±"
                + tickLabel(marginPercent) + " % equivalence margin");
        return s.append("</svg>").toString();
    }

    // ---- pieces ------------------------------------------------------------------------------------------------

    /** Plot area inside the margins. */
    private record Frame(double width, double height, double left, double rightMargin, double top,
                         double bottomMargin) {
        double right() {
            return width - rightMargin;
        }

        double bottom() {
            return height - bottomMargin;
        }

        double plotWidth() {
            return right() - left;
        }
    }

    /** A linear map from data to pixels. */
    private record Scale(double lo, double hi, double pixelLo, double pixelHi) {
        static Scale of(double[] values, double pixelLo, double pixelHi) {
            double lo = Arrays.stream(values).min().orElse(0);
            double hi = Arrays.stream(values).max().orElse(1);
            if (hi - lo <= Math.abs(hi) * 1e-12 || hi == lo) {
                double spread = lo == 0 ? 1 : Math.abs(lo) * 0.01;
                lo -= spread;
                hi += spread;
            }
            double pad = (hi - lo) * 0.06;
            return new Scale(lo - pad, hi + pad, pixelLo, pixelHi);
        }

        double at(double v) {
            return pixelLo + (v - lo) / (hi - lo) * (pixelHi - pixelLo);
        }
    }

    private static StringBuilder open(String id, double width, double height, String title, String desc) {
        StringBuilder s = new StringBuilder(4096);
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" id=\"").append(id)
                .append("\" viewBox=\"0 0 ").append(n(width)).append(' ').append(n(height)).append("\" width=\"")
                .append(n(width)).append("\" height=\"").append(n(height)).append("\" aria-labelledby=\"").append(id)
                .append("-title ").append(id).append("-desc\">");
        s.append("<title id=\"").append(id).append("-title\">").append(escape(title)).append("</title>");
        s.append("<desc id=\"").append(id).append("-desc\">").append(escape(desc)).append("</desc>");
        return s;
    }

    private static void yAxis(StringBuilder s, Frame f, Scale y, String title) {
        for (double tick : ticks(y.lo, y.hi, 6, false)) {
            double ty = y.at(tick);
            s.append("<line x1=\"").append(n(f.left)).append("\" y1=\"").append(n(ty)).append("\" x2=\"")
                    .append(n(f.right())).append("\" y2=\"").append(n(ty)).append("\" stroke=\"#e5e7eb\"/>")
                    .append("<text x=\"").append(n(f.left - 6)).append("\" y=\"").append(n(ty + 4))
                    .append("\" text-anchor=\"end\" ").append(FONT).append('>').append(tickLabel(tick))
                    .append("</text>");
        }
        s.append("<line x1=\"").append(n(f.left)).append("\" y1=\"").append(n(f.top)).append("\" x2=\"")
                .append(n(f.left)).append("\" y2=\"").append(n(f.bottom())).append("\" stroke=\"#555\"/>");
        s.append("<line x1=\"").append(n(f.left)).append("\" y1=\"").append(n(f.bottom())).append("\" x2=\"")
                .append(n(f.right())).append("\" y2=\"").append(n(f.bottom())).append("\" stroke=\"#555\"/>");
        double cy = (f.top + f.bottom()) / 2;
        s.append("<text transform=\"translate(14,").append(n(cy)).append(") rotate(-90)\" text-anchor=\"middle\" ")
                .append(FONT).append(" font-weight=\"600\">").append(escape(shorten(title, 40))).append("</text>");
    }

    private static void xTitle(StringBuilder s, Frame f, String title) {
        s.append("<text x=\"").append(n((f.left + f.right()) / 2)).append("\" y=\"").append(n(f.height - 8))
                .append("\" text-anchor=\"middle\" ").append(FONT).append(" font-weight=\"600\">")
                .append(escape(title)).append("</text>");
    }

    private static void legend(StringBuilder s, Frame f) {
        double x = f.left + 8;
        double y = 14;
        for (String variant : List.of(ExperimentReport.WITHOUT, ExperimentReport.WITH)) {
            marker(s, variant, x, y - 4, colour(variant), variant);
            s.append("<text x=\"").append(n(x + 8)).append("\" y=\"").append(n(y)).append("\" ").append(FONT)
                    .append('>').append(variant).append("</text>");
            x += 80;
        }
    }

    private static void box(StringBuilder s, double[] values, double cx, Scale y, String colour) {
        Summary summary = Summary.of(values, "box");
        double iqr = summary.q3() - summary.q1();
        double lowFence = summary.q1() - 1.5 * iqr;
        double highFence = summary.q3() + 1.5 * iqr;
        double lowWhisker = Arrays.stream(values).filter(v -> v >= lowFence).min().orElse(summary.q1());
        double highWhisker = Arrays.stream(values).filter(v -> v <= highFence).max().orElse(summary.q3());
        double half = 26;
        s.append("<g stroke=\"").append(colour).append("\" fill=\"none\" stroke-width=\"1.5\">");
        s.append("<rect x=\"").append(n(cx - half)).append("\" y=\"").append(n(y.at(summary.q3()))).append("\" width=\"")
                .append(n(2 * half)).append("\" height=\"").append(n(Math.max(1, y.at(summary.q1()) - y.at(summary.q3()))))
                .append("\" fill=\"").append(colour).append("\" fill-opacity=\"0.08\"/>");
        s.append("<line x1=\"").append(n(cx - half)).append("\" y1=\"").append(n(y.at(summary.median())))
                .append("\" x2=\"").append(n(cx + half)).append("\" y2=\"").append(n(y.at(summary.median())))
                .append("\" stroke-width=\"3\"/>");
        whisker(s, cx, y.at(summary.q1()), y.at(lowWhisker));
        whisker(s, cx, y.at(summary.q3()), y.at(highWhisker));
        s.append("</g>");
    }

    private static void whisker(StringBuilder s, double cx, double from, double to) {
        s.append("<line x1=\"").append(n(cx)).append("\" y1=\"").append(n(from)).append("\" x2=\"").append(n(cx))
                .append("\" y2=\"").append(n(to)).append("\"/>");
        s.append("<line x1=\"").append(n(cx - 10)).append("\" y1=\"").append(n(to)).append("\" x2=\"")
                .append(n(cx + 10)).append("\" y2=\"").append(n(to)).append("\"/>");
    }

    /** Circles for {@code without}, squares for {@code with}: the variants differ in shape as well as colour. */
    private static void marker(StringBuilder s, String variant, double x, double y, String colour, String title) {
        if (ExperimentReport.WITH.equals(variant)) {
            s.append("<rect x=\"").append(n(x - 3)).append("\" y=\"").append(n(y - 3))
                    .append("\" width=\"6\" height=\"6\" fill=\"").append(colour).append("\" fill-opacity=\"0.7\">");
            s.append("<title>").append(escape(title)).append("</title></rect>");
        } else {
            s.append("<circle cx=\"").append(n(x)).append("\" cy=\"").append(n(y)).append("\" r=\"3.2\" fill=\"")
                    .append(colour).append("\" fill-opacity=\"0.7\">");
            s.append("<title>").append(escape(title)).append("</title></circle>");
        }
    }

    private static String describeSamples(String metric, String unit, double[] without, double[] with) {
        return "Samples of " + ReportFormat.metricWithUnit(metric, unit) + " per variant, one dot per run, over a "
                + "box from the first to the third quartile with the median; " + groupText("without", without)
                + "; " + groupText("with", with) + ".";
    }

    private static String groupText(String name, double[] values) {
        if (values.length == 0) {
            return name + ": no values";
        }
        Summary s = Summary.of(values, name);
        return name + ": n = " + s.n() + ", median " + Display.value(s.median()).strip() + ", quartiles "
                + Display.value(s.q1()).strip() + " to " + Display.value(s.q3()).strip() + ", mean "
                + Display.value(s.mean()).strip();
    }

    /** "Nice" tick positions (1, 2 or 5 × 10^k apart) covering [lo, hi]. */
    static List<Double> ticks(double lo, double hi, int target, boolean integers) {
        double span = hi - lo;
        double raw = span / Math.max(1, target);
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = magnitude;
        for (double m : new double[] {1, 2, 5, 10}) {
            step = m * magnitude;
            if (step >= raw) {
                break;
            }
        }
        if (integers) {
            step = Math.max(1, Math.round(step));
        }
        List<Double> ticks = new ArrayList<>();
        for (double t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
            ticks.add(Math.abs(t) < step * 1e-9 ? 0.0 : t);
            if (ticks.size() > 50) {
                break;
            }
        }
        return ticks;
    }

    private static String tickLabel(double tick) {
        return Display.value(tick).strip();
    }

    /** A fixed, evenly spread sideways offset per point (golden-ratio sequence): no randomness in the output. */
    private static double jitter(int i) {
        double frac = (i * 0.6180339887498949) % 1.0;
        return (frac - 0.5) * JITTER_WIDTH;
    }

    private static double clip(double v, Scale x) {
        return Math.max(x.lo, Math.min(x.hi, v));
    }

    private static String colour(String variant) {
        return ExperimentReport.WITH.equals(variant) ? WITH_COLOUR : WITHOUT_COLOUR;
    }

    static String verdictColour(String verdict) {
        return switch (verdict == null ? "" : verdict) {
            case "improved" -> "#15803d";
            case "regressed" -> "#b91c1c";
            case "unchanged" -> "#4b5563";
            default -> "#b45309";
        };
    }

    private static String shorten(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }

    private static double[] concat(double[] a, double[] b) {
        double[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** A pixel coordinate with at most one decimal. */
    private static String n(double v) {
        String text = String.format(Locale.ROOT, "%.1f", v);
        return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
    }

    /** Text for SVG/XML character data and attribute values. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        b.append(' ');
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
