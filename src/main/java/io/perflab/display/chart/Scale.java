package io.perflab.display.chart;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A linear map from data to pixels.
 *
 * @param lo the data value drawn at {@code pixelLo}
 * @param hi the data value drawn at {@code pixelHi}
 */
record Scale(double lo, double hi, double pixelLo, double pixelHi) {

    /**
     * A scale that shows every value with 6 % of the range to spare at each end; constant data get a range of
     * ±1 % around their value (±1 around 0), so that nothing divides by zero.
     */
    static Scale covering(double[] values, double pixelLo, double pixelHi) {
        double lo = Arrays.stream(values).min().orElse(0);
        double hi = Arrays.stream(values).max().orElse(1);
        if (hi - lo <= Math.abs(hi) * 1e-12) {
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

    /** {@code v} moved into the scale's range. */
    double clip(double v) {
        return Math.max(Math.min(lo, hi), Math.min(Math.max(lo, hi), v));
    }

    /** "Nice" tick positions (1, 2 or 5 × 10^k apart, whole numbers if asked) covering [lo, hi]. */
    static List<Double> ticks(double lo, double hi, int target, boolean integers) {
        double raw = (hi - lo) / Math.max(1, target);
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
        for (double t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9 && ticks.size() <= 50; t += step) {
            ticks.add(Math.abs(t) < step * 1e-9 ? 0.0 : t);
        }
        return ticks;
    }
}
