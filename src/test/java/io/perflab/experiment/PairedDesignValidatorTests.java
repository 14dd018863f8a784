package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.paired.PairedInput;
import io.perflab.paired.SequentialStopping;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.system.InvalidInputException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The paired fields of an experiment request: each mistake refused naming its field, nothing else accepted. */
class PairedDesignValidatorTests {

    private final ExperimentValidator validator = new ExperimentValidator(new CommandExperimentsPolicy(true),
            JvmFlagPolicies.of(false));

    private static ExperimentRequest request(String kind, String design, Integer runs, String order, Integer pairs,
                                             Integer windows, List<String> target, String budget) {
        boolean command = "command".equals(kind);
        return new ExperimentRequest("paired", null, kind, command ? null : "sync-completion", null, null, null, null,
                null, command ? "true" : null, command ? "sleep 0" : null, runs, order, null, null, null, null, null,
                null, null, null, design, pairs, windows, target, budget);
    }

    private static ExperimentRequest paired(String design, Integer pairs, Integer windows, List<String> target,
                                            String budget) {
        return request(null, design, null, null, pairs, windows, target, budget);
    }

    private void assertRefused(ExperimentRequest request, String field, String message) {
        assertThatThrownBy(() -> validator.validate(request, true))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                    assertThat(e.problems()).singleElement().satisfies(p -> {
                        assertThat(p.field()).isEqualTo(field);
                        assertThat(p.message()).contains(message);
                    });
                });
    }

    @Test
    void aDuetRequestBecomesAPairedPlanWithItsTargetsAndBudget() {
        ExperimentSpec spec = validator.validate(paired("duet", 12, null,
                List.of("cpu_us_per_req:1.5%", "user_cpu_us_per_req:settled"), "6m"), false);

        assertThat(spec.plan().design()).isEqualTo(ExperimentDesign.DUET);
        assertThat(spec.plan().pairs()).isEqualTo(12);
        assertThat(spec.plan().windowsPerPair()).isEqualTo(3);
        assertThat(spec.stopping().targets()).containsExactly(new SequentialStopping.Target("cpu_us_per_req", 1.5),
                new SequentialStopping.Target("user_cpu_us_per_req", 0));
        assertThat(spec.stopping().budget()).contains(Duration.ofMinutes(6));
        assertThat(spec.stopping().targetTexts()).containsExactly("cpu_us_per_req:1.5%",
                "user_cpu_us_per_req:settled");
    }

    @Test
    void aTargetMayBeAMetricScaledToTheHostsSpeed() {
        ExperimentSpec spec = validator.validate(paired("alternating", 8, null,
                List.of("cpu_us_per_req_adj:2%", "reqs_per_sec_adj:settled"), null), false);

        assertThat(spec.stopping().targets()).containsExactly(
                new SequentialStopping.Target("cpu_us_per_req_adj", 2), new SequentialStopping.Target(
                        "reqs_per_sec_adj", 0));
    }

    /** What some hosts count and others do not: the run stops at its first pair where they are not counted. */
    @Test
    void aTargetMayBeACountThatOnlySomeHostsGive() {
        ExperimentSpec spec = validator.validate(paired("alternating", 8, null,
                List.of("instructions_per_req:settled", "syscalls_per_req:1%", "cycles_per_req:settled"), null), false);

        assertThat(spec.stopping().targets()).extracting(SequentialStopping.Target::metric)
                .containsExactly("instructions_per_req", "syscalls_per_req", "cycles_per_req");
    }

    /** A duet's JVMs count no system calls unless told to: a target on them could never be settled there. */
    @Test
    void aTargetOnSystemCallsInADuetIsRefusedAsItsJvmsWouldNotCountThem() {
        assertRefused(paired("duet", 8, null, List.of("syscalls_per_req:settled"), null), "target",
                "syscalls_per_req would not be measured, so its target could never be settled: a duet's trial JVMs "
                        + "count no system calls unless given -Dperflab.countSyscalls=true");
        assertThat(validator.validate(paired("alternating", 8, null, List.of("syscalls_per_req:settled"), null), true)
                .stopping().targets()).extracting(SequentialStopping.Target::metric)
                .containsExactly("syscalls_per_req");
    }

    /** A target's half-width is stored as a text that reads back as the very number that was checked. */
    @Test
    void aTargetIsStoredAsTheNumberThatWasChecked() {
        ExperimentSpec spec = validator.validate(paired("duet", 4, null,
                List.of("cpu_us_per_req:1.7976e308%", "user_cpu_us_per_req:0.12345%"), null), false);

        assertThat(spec.stopping().targetTexts()).containsExactly("cpu_us_per_req:1.7976E308%",
                "user_cpu_us_per_req:0.12345%");
        assertThat(spec.stopping().targetTexts().stream().map(SequentialStopping.Target::parse).toList())
                .isEqualTo(spec.stopping().targets());
    }

    /** Looks are made per metric: a second target on the same metric never had one, and nothing stopped early. */
    @Test
    void aMetricTargetedTwiceIsRefusedNamingTheMetric() {
        assertRefused(paired("duet", 4, null, List.of("cpu_us_per_req:1%", "sys_cpu_us_per_req:settled",
                "cpu_us_per_req:settled"), null), "target", "names the metric 'cpu_us_per_req' twice "
                + "('cpu_us_per_req:1%' and 'cpu_us_per_req:settled')");
    }

    /** Twenty targets of a command's own metrics, each within its bound, took more than their column holds: a 500. */
    @Test
    void targetsThatDoNotFitTheirColumnAreRefused() {
        ExperimentValidator reading = new ExperimentValidator(new CommandExperimentsPolicy(true),
                JvmFlagPolicies.of(false), new io.perflab.upload.OutputMetricsReader());
        List<String> targets = java.util.stream.IntStream.range(0, 20)
                .mapToObj(i -> "metric_" + i + "_" + "x".repeat(120) + ":settled").toList();
        ExperimentRequest request = new ExperimentRequest("paired", null, "command", null, null, null, null, null,
                null, "true", "sleep 0", null, null, null, null, null, "jmh", null, null, null, null, "alternating",
                4, null, targets, null);

        assertThatThrownBy(() -> reading.validate(request, true))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.problems()).singleElement()
                        .satisfies(p -> {
                            assertThat(p.field()).isEqualTo("target");
                            assertThat(p.message()).contains("as stored (as JSON); at most 2000 fit");
                        }));
        assertThat(reading.validate(new ExperimentRequest("paired", null, "command", null, null, null, null, null,
                null, "true", "sleep 0", null, null, null, null, null, "jmh", null, null, null, null, "alternating",
                4, null, targets.subList(0, 10), null), true).stopping().targets()).hasSize(10);
    }

    @Test
    void anAlternatingCommandExperimentIsAccepted() {
        ExperimentSpec spec = validator.validate(request("command", "Alternating", null, null, 4, 2, null, null),
                true);

        assertThat(spec.plan().design()).isEqualTo(ExperimentDesign.ALTERNATING);
        assertThat(spec.plan().windowsPerPair()).isEqualTo(2);
        assertThat(spec.stopping().active()).isFalse();
    }

    @Test
    void withoutADesignARequestIsAlternatingUnlessItGivesRunsPerVariant() {
        ExperimentSpec alternating = validator.validate(request(null, null, null, null, null, null, null, null),
                false);
        ExperimentSpec fresh = validator.validate(request(null, null, 6, null, null, null, null, null), false);
        ExperimentSpec sized = validator.validate(paired("duet", null, null, null, null), false);

        assertThat(alternating.plan().design()).isEqualTo(ExperimentDesign.ALTERNATING);
        assertThat(alternating.plan().pairs()).isEqualTo(PairedInput.DEFAULT_PAIRS);
        assertThat(alternating.plan().windowsPerPair()).isEqualTo(PairedInput.DEFAULT_WINDOWS_PER_PAIR);
        EngineVariant with = (EngineVariant) alternating.plan().with();
        assertThat(with.workload().run()).isEqualTo(Duration.ofSeconds(3));
        assertThat(with.workload().warmup()).isEqualTo(Workload.PAIRED_DEFAULTS.warmup());
        assertThat(fresh.plan().design()).isEqualTo(ExperimentDesign.FRESH);
        assertThat(((EngineVariant) fresh.plan().with()).workload().run()).isEqualTo(Workload.DEFAULTS.run());
        assertThat(sized.plan().pairs()).isEqualTo(PairedInput.DEFAULT_PAIRS);
    }

    @Test
    void anEngineRequestNamingNeitherPairsNorTargetIsTheDefaultSequentialExperiment() {
        ExperimentSpec byDefault = validator.validate(paired(null, null, null, null, null), false);
        ExperimentSpec budgeted = validator.validate(paired(null, null, null, null, "12m"), false);
        ExperimentSpec sized = validator.validate(paired("alternating", 8, null, null, null), false);
        ExperimentSpec targeted = validator.validate(paired(null, null, null, List.of("ctx_switches_per_req:settled"),
                null), false);
        ExperimentSpec command = validator.validate(request("command", null, null, null, null, null, null, null),
                true);

        assertThat(byDefault.plan().pairs()).isEqualTo(40);
        assertThat(byDefault.stopping().targetTexts()).containsExactly("user_cpu_us_per_req:mde=2%",
                "sys_cpu_us_per_req:mde=2%",
                "cpu_us_per_req:mde=2%", "ctx_switches_per_req:mde=2%");
        assertThat(byDefault.stopping().budget()).isEmpty();
        assertThat(budgeted.stopping().targetTexts()).as("a budget alone keeps the default's targets")
                .isEqualTo(byDefault.stopping().targetTexts());
        assertThat(budgeted.stopping().budget()).contains(Duration.ofMinutes(12));
        assertThat(sized.plan().pairs()).isEqualTo(8);
        assertThat(sized.stopping().targets()).as("pairs without a target: every pair runs").isEmpty();
        assertThat(targeted.plan().pairs()).isEqualTo(40);
        assertThat(targeted.stopping().targetTexts()).containsExactly("ctx_switches_per_req:settled");
        assertThat(command.plan().design()).isEqualTo(ExperimentDesign.ALTERNATING);
        assertThat(command.plan().pairs()).as("a command experiment's own default").isEqualTo(8);
        assertThat(command.stopping().targets()).isEmpty();
    }

    @Test
    void aFreshRequestStaysFreshAndRunsEveryTrial() {
        ExperimentSpec spec = validator.validate(request(null, "fresh", 6, "randomized", null, null, null, null),
                false);

        assertThat(spec.plan().design()).isEqualTo(ExperimentDesign.FRESH);
        assertThat(spec.plan().runsPerVariant()).isEqualTo(6);
        assertThat(spec.stopping()).isEqualTo(PairedStopping.NONE);
    }

    @Test
    void eachMistakeNamesItsField() {
        assertRefused(paired("trio", 4, null, null, null), "design", "unknown design 'trio'; allowed: fresh, duet, "
                + "alternating");
        assertRefused(request("command", "duet", null, null, 4, null, null, null), "design",
                "a command experiment takes fresh or alternating");
        assertRefused(request(null, "duet", 10, null, 4, null, null, null), "runsPerVariant",
                "the duet design takes 'pairs'");
        assertRefused(request(null, "alternating", null, "blocked", 4, null, null, null), "order",
                "applies to the fresh design");
        assertRefused(request(null, null, 10, null, 4, null, null, null), "pairs", "applies to the paired designs");
        assertRefused(request(null, "fresh", 10, null, null, 3, null, null), "windowsPerPair",
                "applies to the paired designs");
        assertRefused(request(null, null, 10, null, null, null, List.of("cpu_us_per_req:1%"), null), "target",
                "applies to the paired designs");
        assertRefused(request(null, null, 10, null, null, null, null, "5m"), "budget",
                "applies to the paired designs");
        assertRefused(paired("duet", 4, null, List.of("cpu_per_req:1%"), null), "target",
                "unknown metric 'cpu_per_req'");
        assertRefused(paired("duet", 4, null, List.of("cpu_us_per_req:tight"), null), "target",
                "a target's precision is a percentage > 0, 'settled' or mde=PERCENT%, got 'tight'");
        assertRefused(paired("duet", 4, null, List.of("cpu_us_per_req"), null), "target",
                "a target is METRIC:PERCENT%, METRIC:settled or METRIC:mde=PERCENT%");
        assertRefused(paired("duet", 4, null, null, "soon"), "budget",
                "takes a duration such as 10m, 90s or 1h30m, got 'soon'");
        assertRefused(paired("duet", 4, null, null, "2d"), "budget", "takes a duration");
        assertRefused(paired("duet", 4, null, null, "25h"), "budget", "at most a day");
        assertRefused(request("command", "alternating", null, null, 4, null, List.of("cpu_us_per_req:1%"), null),
                "target", "unknown metric 'cpu_us_per_req'");
    }
}
