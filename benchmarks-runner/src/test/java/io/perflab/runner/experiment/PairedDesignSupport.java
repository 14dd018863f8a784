package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.perflab.rpc.EngineOptions;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.TrialResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * What the tests of the paired designs share: the stand-in trial JVM ({@link FakeTrial}), a listener that keeps
 * what it is told, and plans of quick JVMs. The designs' tests are two classes so that the two test JVMs of the
 * module's suite take one each.
 */
abstract class PairedDesignSupport {

    static final String CLASSPATH = System.getProperty("java.class.path");
    static final TrialLauncher FAKE = TrialLauncher.mainClass(CLASSPATH, FakeTrial.class.getName());
    static final List<String> QUICK_JVM = List.of("-Xmx64m", "-XX:TieredStopAtLevel=1", "-Xshare:auto");
    static final long FIFTY_MS = TimeUnit.MILLISECONDS.toNanos(50);

    final List<TrialResult> windows = new CopyOnWriteArrayList<>();
    final List<PairResult> pairs = new CopyOnWriteArrayList<>();
    final List<PairPlacement> placements = new CopyOnWriteArrayList<>();
    final PairListener listener = new PairListener() {
        @Override
        public void pairStarted(int pair, PairPlacement placement) {
            placements.add(placement);
        }

        @Override
        public void windowFinished(TrialResult window) {
            windows.add(window);
        }

        @Override
        public void pairFinished(PairResult pair) {
            pairs.add(pair);
        }
    };

    static void assertSkewIsTheDifferenceOfTheStarts(PairedOutcome outcome) {
        for (PairResult pair : outcome.pairs()) {
            List<TrialResult> with = pair.windows(VariantName.WITH);
            List<TrialResult> without = pair.windows(VariantName.WITHOUT);
            for (int j = 0; j < with.size(); j++) {
                long skew = with.get(j).pair().startNanos() - without.get(j).pair().startNanos();
                assertThat(with.get(j).pair().skewNanos()).isEqualTo(skew);
                assertThat(without.get(j).pair().skewNanos()).isEqualTo(-skew);
            }
        }
    }

    static void assertNoTrialJvmLeft(PairedOutcome outcome) {
        outcome.results().stream().filter(r -> r.pid() > 0).forEach(r ->
                assertThat(ProcessHandle.of(r.pid()).map(ProcessHandle::isAlive)).isNotEqualTo(
                        java.util.Optional.of(true)));
    }

    static List<TrialResult> byStart(PairResult pair) {
        return pair.results().stream().sorted(Comparator.comparing(r -> r.pair().startNanos())).toList();
    }

    static List<String> order(PairResult pair) {
        return byStart(pair).stream().map(r -> r.variant() + " " + r.pair().window()).toList();
    }

    static void assumeDuetPossible() {
        assumeThat(CpuList.available(java.util.Optional.empty()).cpus().size()).as("CPUs for a duet")
                .isGreaterThanOrEqualTo(2);
        assumeThat(java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "taskset")))).as("taskset on the PATH").isTrue();
    }

    static ExperimentPlan plan(Variant without, Variant with, int pairs, ExperimentDesign design,
                               int windowsPerPair) {
        return ExperimentPlan.of(without, with, pairs).withJvmArgs(QUICK_JVM).withDesign(design, windowsPerPair);
    }

    static EngineVariant engine(String behaviour) {
        return EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS.withRun(Duration.ofMillis(300)))
                .withJvmArgs(List.of("-D" + FakeTrial.BEHAVIOUR + "=" + behaviour));
    }
}
