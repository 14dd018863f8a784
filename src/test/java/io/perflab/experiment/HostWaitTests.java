package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.HostCounts;
import io.perflab.agent.HostLabels;
import io.perflab.agent.HostPlatform;
import io.perflab.display.Format;
import io.perflab.runner.experiment.VariantName;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a queued experiment is said to wait for, from the groups of registered hosts. */
class HostWaitTests {

    private static final Instant HEARD = Instant.parse("2026-01-02T03:04:05Z");

    private static final HostPlatform LINUX = new HostPlatform("Linux", "amd64");

    private static final Map<VariantName, Map<String, String>> FUTEX = Map.of(VariantName.WITHOUT,
            Map.of("completion", "condvar"), VariantName.WITH, Map.of("completion", "futex"));

    private static ExperimentRepository.Claimable queued(ExperimentKind kind, String required, String runLabels) {
        return new ExperimentRepository.Claimable(7, ExperimentStatus.QUEUED, kind, HostLabels.parse(required),
                runLabels, HostNeeds.NONE);
    }

    /** A queued engine experiment whose variant {@code with} has {@code completion=futex}, asking for labels. */
    private static ExperimentRepository.Claimable futex(String required) {
        return new ExperimentRepository.Claimable(7, ExperimentStatus.QUEUED, ExperimentKind.ENGINE,
                HostLabels.parse(required), null, HostNeeds.of(ExperimentKind.ENGINE, FUTEX, List.of()));
    }

    /** A queued paired engine experiment asking for labels, stopped by targets on {@code targetMetrics}. */
    private static ExperimentRepository.Claimable targeting(String required, String... targetMetrics) {
        return new ExperimentRepository.Claimable(7, ExperimentStatus.QUEUED, ExperimentKind.ENGINE,
                HostLabels.parse(required), null, HostNeeds.of(ExperimentKind.ENGINE, Map.of(),
                        List.of(targetMetrics)));
    }

    private static AgentRepository.HostGroup hosts(String labels, boolean runsCommands, Instant heard,
            boolean live) {
        return hosts(labels, runsCommands, LINUX, heard, live);
    }

    private static AgentRepository.HostGroup hosts(String labels, boolean runsCommands, HostPlatform platform,
            Instant heard, boolean live) {
        return new AgentRepository.HostGroup(HostLabels.parse(labels), runsCommands, platform, null, heard, live);
    }

    /**
     * Live hosts of Linux on amd64 with {@code labels} whose agents said {@code hardwareCounters}, and that they
     * count system calls.
     */
    private static AgentRepository.HostGroup counting(String labels, Boolean hardwareCounters) {
        return making(labels, new HostCounts(true, hardwareCounters));
    }

    /** Live hosts of Linux on amd64 with {@code labels} whose agents said {@code counts}. */
    private static AgentRepository.HostGroup making(String labels, HostCounts counts) {
        return new AgentRepository.HostGroup(HostLabels.parse(labels), false, LINUX, counts, HEARD, true);
    }

    @Test
    void aLiveHostOfTheLabelsAskedForLeavesNothingToSay() {
        assertThat(HostWait.of(queued(ExperimentKind.ENGINE, "pool=a", null),
                List.of(hosts("arch=x86_64,pool=a", false, HEARD, true)))).isEmpty();
    }

    @Test
    void onlyAHostThatHeartbeatsNoMoreSaysWhenOneWasLastAlive() {
        HostWait wait = HostWait.of(queued(ExperimentKind.ENGINE, "pool=a", null),
                List.of(hosts("pool=a", false, HEARD, false), hosts("pool=a", false, HEARD.minusSeconds(60), false),
                        hosts("pool=b", false, HEARD.plusSeconds(60), true))).orElseThrow();

        assertThat(wait.detail()).isEqualTo("Waiting for a host with labels pool=a; none alive since "
                + Format.time(HEARD) + ": start perflab agent on such a host, or bring its agent back.");
        assertThat(wait.noneAliveSince()).as("the latest of the hosts able to run it, not of pool=b").isEqualTo(HEARD);
        assertThat(wait.labels()).isEqualTo("pool=a");
        assertThat(wait.exactLabels()).isFalse();
    }

    @Test
    void aCommandExperimentWaitsForAHostThatRunsCommands() {
        HostWait wait = HostWait.of(queued(ExperimentKind.COMMAND, "", null),
                List.of(hosts("", false, HEARD, true))).orElseThrow();

        assertThat(wait.detail()).isEqualTo("Waiting for a host that runs command experiments; none has registered: "
                + "start perflab agent on such a host.");
        assertThat(wait.noneAliveSince()).isNull();
        assertThat(wait.runsCommands()).isTrue();
    }

    @Test
    void anExperimentThatHasRunWaitsForAHostOfExactlyTheLabelsItRanOn() {
        ExperimentRepository.Claimable resumed = queued(ExperimentKind.ENGINE, "pool=a", "pool=a");

        HostWait wait = HostWait.of(resumed, List.of(hosts("arch=arm64,pool=a", false, HEARD, true),
                hosts("pool=a", false, HEARD, false))).orElseThrow();

        assertThat(wait.detail()).startsWith("Waiting for a host labelled exactly pool=a (as the host its first "
                + "trial ran on); none alive since ");
        assertThat(wait.exactLabels()).isTrue();
        assertThat(HostWait.of(queued(ExperimentKind.ENGINE, "", ""), List.of(hosts("pool=a", false, HEARD, true)))
                .orElseThrow().detail()).startsWith("Waiting for a host without labels (as the host its first trial "
                        + "ran on); none has registered");
    }

    @Test
    void anExperimentWithAnOptionThatRunsOnOnePlatformWaitsForAHostOfThatPlatformNamingTheOption() {
        List<AgentRepository.HostGroup> elsewhere = List.of(
                hosts("pool=a", false, new HostPlatform("Mac OS X", "aarch64"), HEARD, true),
                hosts("pool=a", false, new HostPlatform("Linux", "riscv64"), HEARD, true),
                hosts("pool=a", false, LINUX, HEARD.minusSeconds(60), false));

        HostWait wait = HostWait.of(futex("pool=a"), elsewhere).orElseThrow();

        assertThat(wait.detail()).isEqualTo("Waiting for a host with labels pool=a, on Linux on amd64 or aarch64 "
                + "(completion=futex of variant with runs there only); none alive since "
                + Format.time(HEARD.minusSeconds(60)) + ": start perflab agent on such a host, or bring its agent "
                + "back.");
        assertThat(wait.platforms()).singleElement().satisfies(need -> {
            assertThat(need.variant()).isEqualTo("with");
            assertThat(need.option()).isEqualTo("completion=futex");
            assertThat(need.platform().osName()).isEqualTo("Linux");
            assertThat(need.platform().architectures()).containsExactly("amd64", "aarch64");
        });
        assertThat(HostWait.of(futex(""), List.of(hosts("", false, new HostPlatform("Mac OS X", "x86_64"), HEARD,
                true))).orElseThrow().detail()).isEqualTo("Waiting for a host on Linux on amd64 or aarch64 "
                        + "(completion=futex of variant with runs there only); none has registered: start perflab "
                        + "agent on such a host.");
        assertThat(HostWait.of(futex("pool=a"), List.of(hosts("pool=a", false, new HostPlatform("Linux", "aarch64"),
                HEARD, true)))).as("a live Linux host on aarch64 takes it").isEmpty();
        assertThat(HostWait.of(queued(ExperimentKind.ENGINE, "pool=a", null), elsewhere))
                .as("an experiment without such an option runs on any of them").isEmpty();
    }

    @Test
    void aLiveHostThatRegisteredNoPlatformIsSaidToBeGivenNone() {
        HostWait wait = HostWait.of(futex(""), List.of(hosts("", false, null, HEARD, true))).orElseThrow();

        assertThat(wait.detail()).isEqualTo("Waiting for a host on Linux on amd64 or aarch64 (completion=futex of "
                + "variant with runs there only); none has registered: start perflab agent on such a host. A live "
                + "host that would otherwise take it registered no platform (os_name and os_arch), so it is not "
                + "given it.");
        assertThat(HostWait.of(queued(ExperimentKind.ENGINE, "", null), List.of(hosts("", false, null, HEARD, true))))
                .as("it runs the experiments that need no platform").isEmpty();
    }

    @Test
    void bothVariantsNeedingThePlatformAreNamedTogether() {
        ExperimentRepository.Claimable both = new ExperimentRepository.Claimable(7, ExperimentStatus.QUEUED,
                ExperimentKind.ENGINE, HostLabels.NONE, null, HostNeeds.of(ExperimentKind.ENGINE,
                        Map.of(VariantName.WITHOUT, Map.of("completion", "futex", "allocator", "unpooled"),
                                VariantName.WITH, Map.of("completion", "futex")), List.of()));

        assertThat(HostWait.of(both, List.of()).orElseThrow().detail()).startsWith("Waiting for a host on Linux on "
                + "amd64 or aarch64 (completion=futex of variants without and with runs there only); none has ");
    }

    /**
     * An experiment whose target is instructions_per_req was given to any host of its labels, and on one without
     * hardware counters stopped after its first pair, its target unmeasured. It waits for a host that has them,
     * naming the target, and says so of a live host that would take it but has none, or did not say.
     */
    @Test
    void anExperimentWhoseTargetOnlyHardwareCountersMeasureWaitsForAHostThatHasThem() {
        HostWait wait = HostWait.of(targeting("pool=a", "cpu_us_per_req", "instructions_per_req"),
                List.of(counting("pool=a", false), counting("pool=b", true))).orElseThrow();

        assertThat(wait.detail()).isEqualTo("Waiting for a host with labels pool=a, with hardware counters (target "
                + "instructions_per_req is counted there only); none has registered: start perflab agent on such a "
                + "host. A live host that would otherwise take it has no hardware counters: created with a target "
                + "every host measures (cpu_us_per_req), the experiment would run there.");
        assertThat(wait.hardwareCounterTargets()).containsExactly("instructions_per_req");
        assertThat(wait.platforms()).isEmpty();
        assertThat(HostWait.of(targeting("", "cycles_per_req", "instructions_per_req", "cycles_per_req"),
                List.of(counting("", null))).orElseThrow().detail()).isEqualTo("Waiting for a host with hardware "
                        + "counters (targets cycles_per_req and instructions_per_req are counted there only); none has "
                        + "registered: start perflab agent on such a host. A live host that would otherwise take it "
                        + "did not say whether it has hardware counters (hardwareCounters: its perflab agent is of an "
                        + "earlier release), so it is not given it.");
        assertThat(HostWait.of(targeting("pool=a", "instructions_per_req"), List.of(counting("pool=a", true))))
                .as("a live host with hardware counters takes it").isEmpty();
        assertThat(HostWait.of(targeting("pool=a", "cpu_us_per_req", "syscalls_per_req"),
                List.of(counting("pool=a", false), counting("pool=a", null))))
                .as("targets that need no hardware counters run on a host of its labels that counts the rest")
                .isEmpty();
    }

    /**
     * An experiment whose target is syscalls_per_req was given to any host of its labels, and on one whose trials
     * count no system calls stopped after its first pair, its target unmeasured. It waits for a host that counts
     * them, naming the target, and says so of a live host that would take it but counts none, or did not say.
     */
    @Test
    void anExperimentWhoseTargetIsSystemCallsWaitsForAHostThatCountsThem() {
        HostWait wait = HostWait.of(targeting("pool=a", "syscalls_per_req"),
                List.of(making("pool=a", new HostCounts(false, true)), making("pool=a", new HostCounts(null, true)),
                        making("pool=b", new HostCounts(true, false)))).orElseThrow();

        assertThat(wait.detail()).isEqualTo("Waiting for a host with labels pool=a, that counts system calls (target "
                + "syscalls_per_req is counted there only); none has registered: start perflab agent on such a host. "
                + "A live host that would otherwise take it counts no system calls: created with a target every host "
                + "measures (cpu_us_per_req), the experiment would run there. A live host that would otherwise take "
                + "it did not say whether it counts system calls (systemCalls: its perflab agent is of an earlier "
                + "release), so it is not given it.");
        assertThat(wait.systemCallTargets()).containsExactly("syscalls_per_req");
        assertThat(wait.hardwareCounterTargets()).isEmpty();
        assertThat(HostWait.of(targeting("pool=a", "syscalls_per_req"), List.of(making("pool=a",
                new HostCounts(true, null))))).as("a live host that counts system calls takes it").isEmpty();
    }

    /** Targets of both counts wait for a host that makes both, and name each. */
    @Test
    void anExperimentTargetingBothCountsNamesBoth() {
        HostWait wait = HostWait.of(targeting("", "instructions_per_req", "syscalls_per_req"),
                List.of(making("", new HostCounts(true, false)), making("", new HostCounts(false, true))))
                .orElseThrow();

        assertThat(wait.detail()).isEqualTo("Waiting for a host that counts system calls (target syscalls_per_req "
                + "is counted there only), with hardware counters (target instructions_per_req is counted there "
                + "only); none has registered: start perflab agent on such a host. A live host that would otherwise "
                + "take it counts no system calls: created with a target every host measures (cpu_us_per_req), the "
                + "experiment would run there. A live host that would otherwise take it has no hardware counters: "
                + "created with a target every host measures (cpu_us_per_req), the experiment would run there.");
        assertThat(HostWait.of(targeting("", "instructions_per_req", "syscalls_per_req"),
                List.of(making("", new HostCounts(true, true))))).isEmpty();
    }

    @Test
    void anExperimentNeedingAPlatformAndHardwareCountersNamesBoth() {
        ExperimentRepository.Claimable both = new ExperimentRepository.Claimable(7, ExperimentStatus.QUEUED,
                ExperimentKind.ENGINE, HostLabels.NONE, null, HostNeeds.of(ExperimentKind.ENGINE, FUTEX,
                        List.of("cycles_per_req")));

        assertThat(HostWait.of(both, List.of(new AgentRepository.HostGroup(HostLabels.NONE, false,
                new HostPlatform("Mac OS X", "aarch64"), new HostCounts(true, true), HEARD, true),
                counting("", false))).orElseThrow()
                .detail()).isEqualTo("Waiting for a host on Linux on amd64 or aarch64 (completion=futex of variant "
                        + "with runs there only), with hardware counters (target cycles_per_req is counted there "
                        + "only); none has registered: start perflab agent on such a host. A live host that would "
                        + "otherwise take it has no hardware counters: created with a target every host measures "
                        + "(cpu_us_per_req), the experiment would run there.");
        assertThat(HostWait.of(both, List.of(counting("", true)))).as("Linux on amd64 with counters").isEmpty();
    }

    /** A command experiment's targets are metrics its commands print: no host counts them for it. */
    @Test
    void aCommandExperimentsTargetNeedsNoHardwareCounters() {
        HostNeeds needs = HostNeeds.of(ExperimentKind.COMMAND, Map.of(), List.of("instructions_per_req"));

        assertThat(needs.countedTargets()).isEmpty();
        assertThat(needs.metBy(null, HostCounts.UNSAID)).isTrue();
        assertThat(HostNeeds.of(ExperimentKind.COMMAND, Map.of(), List.of("syscalls_per_req")).countedTargets())
                .isEmpty();
    }
}
