package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WindowDriftTests {

    private static final ComparisonOptions OPTIONS = ComparisonOptions.defaults();

    private static PairWindows pair(double[] with, double[] without) {
        return PairWindows.of(with, without);
    }

    @Test
    void eachSideChangesByItsLeastSquaresTrendFromItsFirstWindowToItsLast() {
        // with falls 5 % and 3 % per window, exactly; without stays and rises 1 % per window
        WindowDrift drift = WindowDrift.of(List.of(
                pair(new double[] {100, 95, 90.25}, new double[] {50, 50, 50}),
                pair(new double[] {100, 97, 94.09}, new double[] {50, 50.5, 51.005})), OPTIONS).orElseThrow();
        double[] differences = {Math.log(0.9025), Math.log(0.9409) - Math.log(1.0201)};

        assertThat(drift.pairs()).isEqualTo(2);
        assertThat(drift.withPercent()).isCloseTo(100 * Math.expm1((Math.log(0.9025) + Math.log(0.9409)) / 2),
                within(1e-9));
        assertThat(drift.withoutPercent()).isCloseTo(100 * Math.expm1(Math.log(1.0201) / 2), within(1e-9));
        TTestResult expected = TTest.oneSample(differences, Alternative.TWO_SIDED, 0.95);
        assertThat(drift.difference().t()).isCloseTo(expected.t(), within(1e-9));
        assertThat(drift.difference().pValue()).isCloseTo(expected.pValue(), within(1e-12));
        assertThat(drift.relativeDifference().percent()).isCloseTo(100 * Math.expm1(expected.difference()),
                within(1e-9));
        assertThat(drift.relativeDifference().ciLowPercent()).isCloseTo(100 * Math.expm1(expected.ciLow()),
                within(1e-9));
    }

    @Test
    void theTrendIsFittedToEveryWindowNotToTheEndsAlone() {
        // the ends of 'with' agree, but its second window was slow: the least-squares line over the four windows
        // 0, ln 0.9, 0, 0 falls by 3 × (−0.5 · ln 0.9) / 5 = −0.3 · ln 0.9 in log from the first window to the last
        WindowDrift dip = WindowDrift.of(List.of(
                pair(new double[] {100, 90, 100, 100}, new double[] {60, 61, 60, 61}),
                pair(new double[] {100, 90, 100, 100}, new double[] {60, 59, 61, 60})), OPTIONS).orElseThrow();
        // a late rise of 10 %: the ends say +10 %, the line over 0, 0, 0, ln 1.1 says 0.9 · ln 1.1
        WindowDrift late = WindowDrift.of(List.of(
                pair(new double[] {100, 100, 100, 110}, new double[] {60, 60.6, 60, 60}),
                pair(new double[] {100, 100, 100, 110}, new double[] {60, 59.4, 60.6, 60})), OPTIONS).orElseThrow();

        assertThat(dip.withPercent()).isCloseTo(100 * Math.expm1(-0.3 * Math.log(0.9)), within(1e-9));
        assertThat(late.withPercent()).isCloseTo(100 * Math.expm1(0.9 * Math.log(1.1)), within(1e-9));
    }

    @Test
    void aWindowMissingOnOneSideIsLeftOutOnBoth() {
        List<PairWindows> pairs = List.of(
                pair(new double[] {100, 95, Double.NaN, 85}, new double[] {50, 50, 50, 52}),
                pair(new double[] {100, 96, 92, 88}, new double[] {50, 51, 50, 50}));
        List<PairWindows> without3 = List.of(
                pair(new double[] {100, 95, 85}, new double[] {50, 50, 52}),
                pair(new double[] {100, 96, 92, 88}, new double[] {50, 51, 50, 50}));

        WindowDrift drift = WindowDrift.of(pairs, OPTIONS).orElseThrow();
        WindowDrift dropped = WindowDrift.of(without3, OPTIONS).orElseThrow();

        assertThat(drift.withoutPercent()).as("window 3 of 'without' is left out with its partner")
                .isNotCloseTo(dropped.withoutPercent(), within(1e-6));
        double slope = fitted(new double[] {0, 1, 3}, new double[] {50, 50, 52}) * 3;
        double other = fitted(new double[] {0, 1, 2, 3}, new double[] {50, 51, 50, 50}) * 3;
        assertThat(drift.withoutPercent()).isCloseTo(100 * Math.expm1((slope + other) / 2), within(1e-9));
    }

    @Test
    void noDriftIsToldWithoutTwoPairsOfTwoWindowsOrWhenNothingMoved() {
        assertThat(WindowDrift.of(List.of(pair(new double[] {100, 90}, new double[] {50, 51})), OPTIONS)).isEmpty();
        assertThat(WindowDrift.of(List.of(pair(new double[] {100}, new double[] {50}),
                pair(new double[] {90}, new double[] {51})), OPTIONS)).as("one window per pair").isEmpty();
        assertThat(WindowDrift.of(List.of(pair(new double[] {100, 100}, new double[] {50, 50}),
                pair(new double[] {90, 90}, new double[] {51, 51})), OPTIONS)).as("nothing moved").isEmpty();
        assertThat(WindowDrift.of(List.of(pair(new double[] {100, 0}, new double[] {50, 50}),
                pair(new double[] {90, 80}, new double[] {51, 50})), OPTIONS))
                .as("a window of 0 has no log; one pair is left").isEmpty();
    }

    @Test
    void equalDriftsOnBothSidesAreNotADifferenceAndUnequalOnesAre() {
        List<PairWindows> alike = new ArrayList<>();
        List<PairWindows> apart = new ArrayList<>();
        double[] noise = {1.01, 0.99, 1.02, 0.98, 1.00, 1.015, 0.985, 1.005};
        for (int p = 0; p < 8; p++) {
            double n = noise[p];
            double[] falling = {100 * n, 97 * n, 94 * n};
            alike.add(pair(falling, new double[] {50 / n, 48.5 / n, 47 * n}));
            apart.add(pair(falling, new double[] {50 / n, 50 * n, 50.2}));
        }

        Optional<WindowDrift> same = WindowDrift.of(alike, OPTIONS);
        Optional<WindowDrift> different = WindowDrift.of(apart, OPTIONS);
        Optional<WindowDrift> oneSided = WindowDrift.of(apart, OPTIONS.withAlternative(Alternative.GREATER));

        assertThat(same.orElseThrow().withPercent()).isCloseTo(-6, within(0.5));
        assertThat(same.orElseThrow().difference().pValue()).isGreaterThan(0.05);
        assertThat(different.orElseThrow().difference().pValue()).isLessThan(0.001);
        assertThat(different.orElseThrow().relativeDifference().percent()).isCloseTo(-6, within(1.5));
        assertThat(oneSided.orElseThrow().difference().pValue()).as("two-sided whatever the comparison's alternative")
                .isEqualTo(different.orElseThrow().difference().pValue());
    }

    private static double fitted(double[] x, double[] y) {
        double mx = 0;
        double my = 0;
        for (int i = 0; i < x.length; i++) {
            mx += x[i] / x.length;
            my += Math.log(y[i]) / x.length;
        }
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (Math.log(y[i]) - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }
        return sxy / sxx;
    }
}
