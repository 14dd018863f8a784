package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.perflab.agent.HostLabels;
import io.perflab.runner.experiment.ExperimentDesign;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The results cache: an experiment's comparisons are computed once per data version, and the cache holds at most
 * its bound in comparisons, forgetting the least recently used experiments first. What a list shows (the digest)
 * comes from the cache, else from the digest stored for the data version, and is stored whenever comparisons are
 * computed.
 */
class ExperimentResultsCacheTests {

    private final ExperimentRepository store = mock(ExperimentRepository.class);
    private final ResultsDigestRepository digests = mock(ResultsDigestRepository.class);
    private int perExperiment;

    @BeforeEach
    void storeWithRuns() {
        List<RunRecord> runs = ExperimentPageTests.engineRuns();
        when(store.runs(anyLong())).thenReturn(runs);
        when(store.metricDefinitions(anyLong())).thenReturn(Map.of());
        perExperiment = new ExperimentResults(store, digests).compute(1, runs).size();
        assertThat(perExperiment).isGreaterThan(1);
    }

    private static ExperimentRecord experiment(long id, int dataVersion) {
        return upload(id, dataVersion, null);
    }

    /** An experiment as stored, compared with base {@code baseId} when it came in (null: with none). */
    private static ExperimentRecord upload(long id, int dataVersion, Long baseId) {
        return new ExperimentRecord(id, "e" + id, null, ExperimentKind.ENGINE, ExperimentStatus.COMPLETED, null, null,
                5, "interleaved", 1, 60, 3, "admin", null, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, dataVersion,
                null, ExperimentDesign.FRESH, 1, PairedStopping.NONE, null, HostLabels.NONE, null, baseId);
    }

    @Test
    void computesOncePerDataVersion() {
        ExperimentResults results = new ExperimentResults(store, digests);

        List<MetricComparison> first = results.compare(experiment(1, 1));
        assertThat(results.compare(experiment(1, 1))).isSameAs(first);
        verify(store, times(1)).runs(1);

        results.compare(experiment(1, 2));
        verify(store, times(2)).runs(1);
    }

    @Test
    void holdsAtMostItsBoundForgettingTheLeastRecentlyUsedFirst() {
        ExperimentResults results = new ExperimentResults(store, digests, 2L * perExperiment);

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
        List<MetricComparison> one = new ExperimentResults(store, digests).compare(experiment(1, 1));
        ComparisonCache cache = new ComparisonCache(perExperiment);

        cache.put(2, 1, one.subList(0, 1));
        cache.put(3, 1, Collections.nCopies(perExperiment + 1, one.get(0)));

        assertThat(cache.get(3, 1)).isEmpty();
        assertThat(cache.get(2, 1)).contains(one.subList(0, 1));
        assertThat(cache.comparisons()).isEqualTo(1);
    }

    @Test
    void aDigestComesFromTheCacheElseFromTheStoreElseIsComputedAndStored() {
        ExperimentResults results = new ExperimentResults(store, digests);
        ResultsDigest stored = new ResultsDigest(List.of(new ResultsDigest.Badge("latency_us", "regressed",
                "stored earlier", 3.0)), 2, 1);
        when(digests.find(7, 1)).thenReturn(Optional.of(stored));
        when(digests.find(8, 1)).thenReturn(Optional.empty());

        assertThat(results.digest(experiment(7, 1))).isSameAs(stored);
        verify(store, never()).runs(7);

        ResultsDigest computed = results.digest(experiment(8, 1));
        verify(store, times(1)).runs(8);
        verify(digests).store(8, 1, computed);
        assertThat(computed).isEqualTo(ResultsDigest.of(results.compare(experiment(8, 1))));
        assertThat(computed.headline()).isNotEmpty();

        results.compare(experiment(9, 1));
        results.digest(experiment(9, 1));
        verify(digests, never()).find(9, 1);
        verify(store, times(1)).runs(9);
    }

    /**
     * An upload of one side with a base is listed by its comparison with the base: the digest stored against that
     * base, else that comparison made again and stored; its own comparisons (one side: nothing compared) neither
     * replace that digest nor are listed. Once its base is gone (deleted: the experiment's base is null), a digest
     * stored against it does not count, and its own is computed and stored.
     */
    @Test
    void anUploadWithABaseIsDigestedByItsComparisonWithTheBaseUntilTheBaseIsGone() {
        List<MetricComparison> againstBase = new ExperimentResults(store, digests).compute(20,
                ExperimentPageTests.engineRuns());
        BaseComparison comparison = new BaseComparison(5, "c5", againstBase, Map.of(), List.of());
        BaseComparison.Source bases = mock(BaseComparison.Source.class);
        when(bases.of(20)).thenReturn(Optional.of(comparison));
        ExperimentResults results = new ExperimentResults(store, digests, bases);
        when(digests.find(20, 1)).thenReturn(Optional.empty());

        results.compare(upload(20, 1, 5L));                       // its page was shown: its own comparisons cached
        verify(digests, never()).store(eq(20L), anyInt(), any());
        ResultsDigest digest = results.digest(upload(20, 1, 5L));
        assertThat(digest).isEqualTo(ResultsDigest.of(comparison));
        assertThat(digest.baseExperimentId()).isEqualTo(5L);
        assertThat(digest.baseCommit()).isEqualTo("c5");
        assertThat(digest.againstBase()).isTrue();
        assertThat(digest.headline()).isNotEmpty();
        verify(digests).store(20, 1, digest);

        // stored against its base: read, not made again
        when(digests.find(20, 1)).thenReturn(Optional.of(digest));
        assertThat(results.digest(upload(20, 1, 5L))).isSameAs(digest);
        verify(bases, times(1)).of(20);

        // the base deleted: the digest against it does not count; its own (from the cache) is what a list shows
        ResultsDigest own = results.digest(upload(20, 1, null));
        assertThat(own.baseExperimentId()).isNull();
        assertThat(own).isEqualTo(ResultsDigest.of(results.compare(upload(20, 1, null))));
        // and after a restart, with nothing cached, its own is computed and stored in place of the one against it
        ExperimentResults restarted = new ExperimentResults(store, digests, bases);
        assertThat(restarted.digest(upload(20, 1, null))).isEqualTo(own);
        verify(digests).store(20, 1, own);
        verify(bases, times(1)).of(20);
    }
}
