package io.perflab.stats;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * R's rules for turning doubles into text: {@code format(x, digits)} (C function {@code formatReal}: the fewest
 * significant digits, at most {@code digits}, that show every element to {@code digits} significant digits; fixed
 * notation unless scientific is narrower) and {@code format.pval}.
 *
 * <p>Decimal rounding is done on the exact binary value with ties to even, as glibc's {@code printf} does.
 *
 * @see <a href="https://github.com/wch/r-source/blob/trunk/src/main/format.c">R source, src/main/format.c
 *     ({@code scientific}, {@code formatReal})</a>
 * @see <a href="https://stat.ethz.ch/R-manual/R-devel/library/base/html/format.pval.html">R's format.pval</a>
 */
public final class RFormat {

    /** R's {@code .Machine$double.eps}: p-values below it print as {@code < 2.2e-16}. */
    public static final double DOUBLE_EPS = Math.ulp(1.0);

    private static final int KP_MAX = 22;

    private RFormat() {
    }

    /** The common layout R chooses for a vector: width, decimals, and whether scientific. */
    record Layout(int width, int decimals, boolean scientific) {
    }

    private record Sci(boolean negative, int kpower, int nsig, boolean roundingWidens) {
    }

    private static Sci scientific(double x, int digits) {
        if (x == 0) {
            return new Sci(false, 0, 1, false);
        }
        double r = Math.abs(x);
        BigDecimal rounded = new BigDecimal(r).round(new MathContext(digits, RoundingMode.HALF_EVEN));
        int kpower = rounded.precision() - rounded.scale() - 1;
        int nsig = Math.max(1, rounded.stripTrailingZeros().precision());
        int rgt = Math.max(0, Math.min(KP_MAX, digits - kpower));
        double fuzz = 0.5 / Math.pow(10, rgt);
        boolean widens = kpower > 0 && kpower <= KP_MAX && r < Math.pow(10, kpower) - fuzz;
        return new Sci(x < 0, kpower, nsig, widens);
    }

    /** R's {@code formatReal} for the finite and infinite values of {@code xs} at {@code digits}. */
    static Layout layout(double[] xs, int digits) {
        boolean neg = false;
        boolean posInf = false;
        boolean negInf = false;
        boolean nan = false;
        int rgt = Integer.MIN_VALUE;
        int mxl = Integer.MIN_VALUE;
        int mnl = Integer.MAX_VALUE;
        int mxsl = Integer.MIN_VALUE;
        int mxns = Integer.MIN_VALUE;
        for (double x : xs) {
            if (Double.isNaN(x)) {
                nan = true;
            } else if (Double.isInfinite(x)) {
                if (x > 0) {
                    posInf = true;
                } else {
                    negInf = true;
                }
            } else {
                Sci s = scientific(x, digits);
                int left = s.kpower() + 1;
                if (s.roundingWidens()) {
                    left--;
                }
                int sleft = (s.negative() ? 1 : 0) + (left <= 0 ? 1 : left);
                int right = s.nsig() - left;
                if (s.negative()) {
                    neg = true;
                }
                rgt = Math.max(rgt, right);
                mxl = Math.max(mxl, left);
                mnl = Math.min(mnl, left);
                mxsl = Math.max(mxsl, sleft);
                mxns = Math.max(mxns, s.nsig());
            }
        }
        int w = 0;
        int d = 0;
        boolean e = false;
        if (mxl != Integer.MIN_VALUE) {
            if (mxl < 0) {
                mxsl = 1 + (neg ? 1 : 0);
            }
            if (rgt < 0) {
                rgt = 0;
            }
            int wF = mxsl + rgt + (rgt != 0 ? 1 : 0);
            int expDigits = (mxl > 100 || mnl <= -99) ? 2 : 1;
            d = mxns - 1;
            w = (neg ? 1 : 0) + (d > 0 ? 1 : 0) + d + 4 + expDigits;
            e = true;
            if (wF <= w) {
                e = false;
                d = rgt;
                w = wF;
            }
        }
        if (nan && w < 3) {
            w = 3;
        }
        if (posInf && w < 3) {
            w = 3;
        }
        if (negInf && w < 4) {
            w = 4;
        }
        return new Layout(w, d, e);
    }

    /** One value in a layout, right-justified to its width (R's {@code encodeReal0}). */
    static String encode(double x, Layout layout) {
        String s;
        if (Double.isNaN(x)) {
            s = "NaN";
        } else if (Double.isInfinite(x)) {
            s = x > 0 ? "Inf" : "-Inf";
        } else if (layout.scientific()) {
            s = scientificText(x, layout.decimals());
        } else {
            s = fixedText(x, layout.decimals());
        }
        return pad(s, layout.width());
    }

    /** {@code format(xs, digits = digits)}: every element in the common layout. */
    public static String[] format(double[] xs, int digits) {
        Layout layout = layout(xs, digits);
        String[] out = new String[xs.length];
        for (int i = 0; i < xs.length; i++) {
            out[i] = encode(xs[i], layout);
        }
        return out;
    }

    /** {@code format(x, digits = digits)} of a single value. */
    public static String format(double x, int digits) {
        return format(new double[] {x}, digits)[0];
    }

    /**
     * {@code format.pval(p, digits)} of a single p-value: {@code "< 2.2e-16"} (at digits 4) below machine
     * epsilon, else {@code format(p, digits)}.
     */
    public static String formatPValue(double p, int digits) {
        if (p < DOUBLE_EPS) {
            int d = Math.max(1, digits - 2);
            return "<" + (d == 1 ? "" : " ") + format(DOUBLE_EPS, d);
        }
        return format(p, digits);
    }

    static String fixedText(double x, int decimals) {
        String s = new BigDecimal(x).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        if (x < 0 && !s.startsWith("-")) {
            s = "-" + s;
        }
        return s;
    }

    static String scientificText(double x, int decimals) {
        if (x == 0) {
            return (decimals > 0 ? "0." + "0".repeat(decimals) : "0") + "e+00";
        }
        BigDecimal rounded = new BigDecimal(Math.abs(x)).round(new MathContext(decimals + 1, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        String digitsText = rounded.unscaledValue().toString();
        while (digitsText.length() < decimals + 1) {
            digitsText = digitsText + "0";
        }
        digitsText = digitsText.substring(0, decimals + 1);
        StringBuilder b = new StringBuilder();
        if (x < 0) {
            b.append('-');
        }
        b.append(digitsText.charAt(0));
        if (decimals > 0) {
            b.append('.').append(digitsText, 1, decimals + 1);
        }
        b.append('e').append(exponent < 0 ? '-' : '+');
        int abs = Math.abs(exponent);
        if (abs < 10) {
            b.append('0');
        }
        b.append(abs);
        return b.toString();
    }

    public static String pad(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
