package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SumsTests {

    /** How many doubles apart two finite doubles of the same sign are. */
    private static long ulpsApart(double a, double b) {
        return Math.abs(Double.doubleToLongBits(a) - Double.doubleToLongBits(b));
    }

    @Test
    void aMeanNearZeroBesideItsValuesIsTheExactMeanAsInR() {
        // the exact mean of the doubles, rounded (Python's fractions.Fraction), to the ulp a compensated sum
        // allows; the first and third are also R 4.2.2's mean() printed with %.17g. Residuals rounded to double had
        // lost the mean: 1.3877787807814457e-17 for the first, 1.5 times the exact mean.
        assertThat(ulpsApart(Sums.mean(new double[] {0.1, 0.2, -0.3}), 9.2518585385429707e-18)).isLessThanOrEqualTo(1);
        // here R's long double residuals (64 bits) are themselves off by 5e-4 relative (-1.3213183765211811e-10);
        // exact residuals give the exact mean
        assertThat(ulpsApart(Sums.mean(new double[] {6000000.1, -6000000.2, 0.1, 3e-11}), -1.32198384804543e-10))
                .isLessThanOrEqualTo(1);
        assertThat(Sums.mean(new double[] {1e9 + 0.1, 1e9 + 0.2, 1e9 + 0.3})).isEqualTo(1000000000.2);
        assertThat(Sums.mean(new double[] {-5, -5, -5})).isEqualTo(-5);
    }
}
