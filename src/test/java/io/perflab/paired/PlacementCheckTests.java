package io.perflab.paired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.perflab.runner.trial.PairPosition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlacementCheckTests {

    /**
     * A duet window of each side: {@code with} on {@code withCpus}, its start {@code skewNanos} after its partner's.
     */
    private static void duetWindow(List<PlacementCheck.Window> windows, int pair, int window, String withCpus,
                                   String withoutCpus, long skewNanos, boolean withFirst) {
        windows.add(new PlacementCheck.Window("with",
                new PairPosition(pair, window, withCpus, 1_000L * window, skewNanos, withFirst)));
        windows.add(new PlacementCheck.Window("without",
                new PairPosition(pair, window, withoutCpus, 1_000L * window - skewNanos, -skewNanos, !withFirst)));
    }

    @Test
    void aDuetSaysHowFarApartItsWindowsStartedAndWhetherTheHalvesSwapped() {
        List<PlacementCheck.Window> windows = new ArrayList<>();
        long[][] skews = {{300_000, -500_000}, {2_300_000, 100_000}, {-400_000, 450_000}};
        String[] withCpus = {"0", "1", "1"};
        for (int pair = 0; pair < 3; pair++) {
            for (int window = 0; window < 2; window++) {
                duetWindow(windows, pair, window, withCpus[pair], withCpus[pair].equals("0") ? "1" : "0",
                        skews[pair][window], pair % 2 == 0);
            }
        }
        // a failed pair's records carry no window and say nothing of the placement
        windows.add(new PlacementCheck.Window("with", new PairPosition(3, null, "0", null, null, false)));

        PlacementCheck check = PlacementCheck.of(windows);

        // |skew| per window: 0.1, 0.3, 0.4, 0.45, 0.5, 2.3 ms (each window once, though both sides record it)
        assertThat(check.skewMedianMs()).isCloseTo(0.425, within(1e-12));
        assertThat(check.skewMaxMs()).isCloseTo(2.3, within(1e-12));
        assertThat(check).usingRecursiveComparison().ignoringFields("skewMedianMs", "skewMaxMs")
                .isEqualTo(new PlacementCheck(3, 6, null, null, 0, 2, 1, 2));
        assertThat(check.describe()).isEqualTo("The two JVMs' windows started 0.43 ms apart (median; at most 2.30 ms"
                + " over 6 windows); the CPU halves swapped between 1 of 2 consecutive pairs; 'with' went first in"
                + " 2 of 3 pairs.");
    }

    @Test
    void alternatingPairsSayOnlyWhoWentFirst() {
        List<PlacementCheck.Window> windows = new ArrayList<>();
        for (int pair = 0; pair < 4; pair++) {
            for (int window = 0; window < 3; window++) {
                windows.add(new PlacementCheck.Window("with",
                        new PairPosition(pair, window, null, 10L * window, null, pair == 1)));
                windows.add(new PlacementCheck.Window("without",
                        new PairPosition(pair, window, null, 10L * window + 5, null, pair != 1)));
            }
        }

        PlacementCheck check = PlacementCheck.of(windows);

        assertThat(check).isEqualTo(new PlacementCheck(4, 0, null, null, 0, 0, 0, 1));
        assertThat(check.describe()).isEqualTo("'with' went first in 1 of 4 pairs.");

        List<PlacementCheck.Window> pinned = new ArrayList<>();
        for (int pair = 0; pair < 3; pair++) {
            pinned.add(new PlacementCheck.Window("with", new PairPosition(pair, 0, "1", 0L, null, pair == 1)));
            pinned.add(new PlacementCheck.Window("without", new PairPosition(pair, 0, "1", 5L, null, pair != 1)));
        }
        assertThat(PlacementCheck.of(pinned).describe()).as("both JVMs on the same CPU: no halves to swap")
                .isEqualTo("'with' went first in 1 of 3 pairs.");
        assertThat(PlacementCheck.of(List.of()).describe()).isEmpty();
    }

    @Test
    void pairsThatAreNotConsecutiveAreNotCountedAsSwapped() {
        List<PlacementCheck.Window> windows = new ArrayList<>();
        duetWindow(windows, 0, 0, "0", "1", 1_000, true);
        duetWindow(windows, 2, 0, "0", "1", 1_000, false);
        duetWindow(windows, 3, 0, "1", "0", 20_000_000, true);

        PlacementCheck check = PlacementCheck.of(windows);

        assertThat(check.consecutivePairs()).isEqualTo(1);
        assertThat(check.cpuSwaps()).isEqualTo(1);
        assertThat(check.skewMaxMs()).isEqualTo(20.0);
        assertThat(check.describe()).startsWith("The two JVMs' windows started 1 µs apart (median; at most 20 ms "
                + "over 3 windows);");
        duetWindow(windows, 4, 0, "0", "1", 75_000_000, false);
        assertThat(PlacementCheck.of(windows).describe()).startsWith("The two JVMs' windows started 10 ms apart "
                + "(median; at most 75 ms over 4 windows, 1 more than 50 ms apart);");
    }
}
