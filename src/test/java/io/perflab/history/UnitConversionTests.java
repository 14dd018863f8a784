package io.perflab.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UnitConversionTests {

    /** Expected figures worked out by hand: 1 ms = 1,000 us = 1,000,000 ns; 1 min = 60 s. */
    @ParameterizedTest(name = "{0} {1} is {3} {2}")
    @CsvSource(delimiter = ';', value = {
            "12; us/op; ms/op; 0.012",
            "0.012; ms/op; us/op; 12",
            "1500; ns/op; us/op; 1.5",
            "2; s/op; ns/op; 2e9",
            "3; min/op; s/op; 180",
            "1; day/op; hr/op; 24",
            "250; ns; us; 0.25",
            "1.25; s; ms; 1250",
            "7; µs; us; 7",
            "7; μs; ns; 7000",
            "2; sec; ms; 2000",
            "5; ops/us; ops/ms; 5000",
            "80000; ops/s; ops/ms; 80",
            "3; ops/ns; ops/s; 3e9",
            "60; ops/min; ops/s; 1",
            "42; op/s; ops/s; 42",
            "42; ops/s; op/s; 42",
            "1024; B/ms; B/s; 1024000",
            "12; us/req; ms/req; 0.012"})
    void convertsBetweenUnitsOfOneDimension(double value, String from, String to, double expected) {
        UnitConversion conversion = UnitConversion.between(from, to).orElseThrow();

        assertThat(conversion.apply(value)).isCloseTo(expected, offset(Math.abs(expected) * 1e-15));
        assertThat(conversion.from()).isEqualTo(from);
        assertThat(conversion.to()).isEqualTo(to);
    }

    @Test
    void decimalStepsOfTimeAreAsExactAsTheFiguresAllow() {
        assertThat(UnitConversion.between("us/op", "ms/op").orElseThrow().apply(12)).isEqualTo(0.012);
        assertThat(UnitConversion.between("ms", "us").orElseThrow().apply(0.012)).isEqualTo(12);
        assertThat(UnitConversion.between("ops/us", "ops/ms").orElseThrow().apply(5)).isEqualTo(5000);
        assertThat(UnitConversion.between("ns/op", "ns/op").orElseThrow().apply(12.3)).isEqualTo(12.3);
    }

    @Test
    void aLargeFigureWhoseConversionIsFiniteStaysFinite() {
        // 1e300 · 86,400e9 overflows on the way; the figure, 24e300, does not
        assertThat(UnitConversion.between("day", "hr").orElseThrow().apply(1e300)).isCloseTo(2.4e301,
                offset(2.4e301 * 1e-15));
    }

    @ParameterizedTest(name = "{0} does not convert to {1}")
    @CsvSource(delimiter = ';', value = {
            // a time per operation and a rate are reciprocals, lower and higher is better
            "us/op; ops/us",
            "ops/s; s/op",
            // a time and a time per operation, or per different things
            "ns; ns/op",
            "ns/op; ns/req",
            "ops/s; B/s",
            "B/s; MB/s",
            // not units of time, or not spelled as the uploads spell them
            "B/op; allocs/op",
            "count; count",
            "bytes; B",
            "MS; ms",
            "us/op/op; ms/op/op",
            "s/s; ms/ms",
            "/s; /ms",
            "ops/; ops/"})
    void unitsOfDifferentDimensionsOrUnknownUnitsDoNotConvert(String from, String to) {
        assertThat(UnitConversion.between(from, to)).isEmpty();
    }

    @Test
    void aMissingUnitDoesNotConvert() {
        assertThat(UnitConversion.between(null, "ms")).isEmpty();
        assertThat(UnitConversion.between("ms", null)).isEmpty();
        assertThat(UnitConversion.between("", "")).isEmpty();
    }
}
