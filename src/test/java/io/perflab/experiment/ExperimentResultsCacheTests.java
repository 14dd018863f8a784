package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.perflab.agent.HostLabels;
import io.perflab.runner.experiment.ExperimentDesign;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The results cache: an experiment's comparisons are computed once per data version, and the cache holds at most
 * its bound in comparisons, forgetting the least recently used experiments first.
 */
class ExperimentResultsCacheTests {

    private final ExperimentRepository store = mock(ExperimentRepository.class);
    private int perExperiment;

    @BeforeEach
    void storeWithRuns() {
        List<RunRecord> runs = ExperimentPageTests.engineRuns();
        when(store.runs(anyLong())).thenReturn(runs);
        when(store.metricDefinitions(anyLong())).thenReturn(Map.of());
        perExperiment = new ExperimentResults(store).compute(1, runs).size();
        assertThat(perExperiment).isGreaterThan(1);
    }

    private static ExperimentRecord experiment(long id, int dataVersion) {
        return new ExperimentRecord(id, "e" + id, null, ExperimentKind.ENGINE, ExperimentStatus.COMPLETED, null, null,
                5, "interleaved", 1, 60, 3, "admin", Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, dataVersion, null,
                ExperimentDesign.FRESH, 1, PairedStopping.NONE, null, HostLabels.NONE, null);
    }

    @Test
    void computesOncePerDataVersion() {
        ExperimentResults results = new ExperimentResults(store);

        List<MetricComparison> first = results.compare(experiment(1, 1));
        assertThat(results.compare(experiment(1, 1))).isSameAs(first);
        verify(store, times(1)).runs(1);

        results.compare(experiment(1, 2));
        verify(store, times(2)).runs(1);
    }

    @Test
    void holdsAtMostItsBoundForgettingTheLeastRecentlyUsedFirst() {
        ExperimentResults results = new ExperimentResults(store, 2L * perExperiment);

        results.compare(experiment(1, 1));
        results.compare(experiment(2, 1));
        results.compare(experiment(1, 1));                // 1 is now used more recently than 2
        results.compare(experiment(3, 1));                // over the bound: 2 goes
        verify(store, times(1)).runs(1);

        results.compare(experiment(1, 1));
        results.compare(experiment(3, 1));
        verify(store, times(1)).runs(1);
        verify(store, times(1)).runs(3);
        results.compare(experiment(2, 1));                // computed again; 1, the least recently used, goes
        verify(store, times(2)).runs(2);
        results.compare(experiment(1, 1));
        verify(store, times(2)).runs(1);
    }

    @Test
    void anExperimentLargerThanTheBoundIsNotKeptAndForgetsNothing() {
        List<MetricComparison> one = new ExperimentResults(store).compare(experiment(1, 1));
        ComparisonCache cache = new ComparisonCache(perExperiment);

        cache.put(2, 1, one.subList(0, 1));
        cache.put(3, 1, Collections.nCopies(perExperiment + 1, one.get(0)));

        assertThat(cache.get(3, 1)).isEmpty();
        assertThat(cache.get(2, 1)).contains(one.subList(0, 1));
        assertThat(cache.comparisons()).isEqualTo(1);
    }
}
