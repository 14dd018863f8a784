package io.perflab.paired;

import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.metering.KernelMeter;
import io.perflab.runner.rpcbench.HostCount;
import io.perflab.runner.rpcbench.Seconds;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.system.PrintableText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * How a user writes a paired experiment's settings, the same on the command line ({@code --windows-per-pair},
 * {@code --target}, {@code --budget}) and in the service ({@code windowsPerPair}, {@code target}, {@code budget}).
 * Each message says what is wrong without naming the flag or field; callers put their name in front.
 */
public final class PairedInput {

    private static final Pattern DURATION = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s?)?");

    /** Windows of each variant per pair unless the user says otherwise. */
    public static final int DEFAULT_WINDOWS_PER_PAIR = 3;

    /**
     * Pairs of a paired engine experiment that names neither its pairs nor a target: at most this many, stopping as
     * soon as every headline metric is settled or a change of 2 % of it is unlikely ({@link #DEFAULT_TARGETS}). With
     * {@link #DEFAULT_WINDOWS_PER_PAIR} windows of {@code Workload.PAIRED_DEFAULTS} a pair takes about 43 s on a
     * 2-vCPU host. 40 pairs resolve about 1.7 % of CPU per request there, enough to find a +2 % change in 8 of 10
     * experiments, where 20 pairs found it in 6 of 10 (docs/PERFORMANCE.md, "A default of at most 40 pairs, each
     * headline metric a target").
     */
    public static final int DEFAULT_PAIRS = 40;

    /**
     * The metrics an engine change's cost per request is judged on: user, system and all CPU per request, and context
     * switches per request, the figures of the seeds' reviews. Each is a target of the default experiment, and a
     * calibration pools its false positives over them.
     */
    public static final List<String> COST_METRICS = List.of(MetricKeys.USER_CPU_US_PER_REQ,
            MetricKeys.SYS_CPU_US_PER_REQ, MetricKeys.CPU_US_PER_REQ, MetricKeys.CTX_SWITCHES_PER_REQ);

    /**
     * The targets of a paired engine experiment that names neither its pairs nor a target: each of
     * {@link #COST_METRICS} {@code :mde=2%}, settled, or futile once a change of ±2 % of it is unlikely to be found by
     * the last pair; the experiment stops when all four are. Each metric is so judged by its own group-sequential
     * rule, which keeps its false-positive rate at α however often it looks. With CPU per request the only target, the
     * other three were judged by a plain paired t-test at the stop that target chose, and that made context switches
     * per request change in 3 of 20 A/A experiments of 40 pairs (pooled 7 of 80, over acceptance's 0.08); with all
     * four targets the same trials and two fresh ones gave 1 of 88, each target judged by its last look as the page
     * reports it, and thirteen known-effect experiments found +2 % in 11 (docs/PERFORMANCE.md, "A default of at most
     * 40 pairs, each headline metric a target").
     */
    public static final List<String> DEFAULT_TARGETS = COST_METRICS.stream().map(m -> m + ":mde=2%").toList();

    /**
     * {@link #DEFAULT_TARGETS} as a help text names them, as a format string writes it (picocli): its % doubled. A
     * constant, as annotations need; {@code AbCommandTests} checks that it names the list.
     */
    public static final String DEFAULT_TARGETS_FORMATTED = "user_cpu_us_per_req:mde=2%% sys_cpu_us_per_req:mde=2%% "
            + "cpu_us_per_req:mde=2%% ctx_switches_per_req:mde=2%%";

    /**
     * Pairs of a paired command experiment that names none: a fixed 8, no target (a command's own cost per pair is
     * the user's, and the sequential default was calibrated on engine trials only).
     */
    public static final int DEFAULT_COMMAND_PAIRS = 8;

    /** The pairs of a paired experiment that names none: {@link #DEFAULT_PAIRS}, or a command's 8. */
    public static int defaultPairs(boolean command) {
        return command ? DEFAULT_COMMAND_PAIRS : DEFAULT_PAIRS;
    }

    /**
     * The targets of a paired experiment: those {@code given}, or, for an engine experiment that names neither its
     * pairs nor a target, {@link #DEFAULT_TARGETS}. Naming the pairs without a target asks for that many pairs, all
     * run; a budget alone keeps the default target.
     */
    public static List<String> targetsOrDefault(List<String> given, boolean pairsGiven, boolean command) {
        return given.isEmpty() && !pairsGiven && !command ? DEFAULT_TARGETS : given;
    }

    /**
     * The design when none is named: {@code fresh} when the trials of a fresh design are given ({@code --runs},
     * {@code runsPerVariant}), else {@code alternating}, the design that measured the smallest changes per minute
     * with its false-positive rate within α on a 2-vCPU host (docs/PERFORMANCE.md, section 2).
     */
    public static ExperimentDesign defaultDesign(boolean runsGiven) {
        return runsGiven ? ExperimentDesign.FRESH : ExperimentDesign.ALTERNATING;
    }

    private PairedInput() {
    }

    /**
     * Why the trials of {@code plan} would not count {@code metric} wherever they ran: a trial JVM flag that turns
     * its counting off ({@code -Dperflab.countSyscalls=false}, {@code -Dperflab.countHardware=false}; of a JVM's
     * flags the last one counts), or, for system calls, a duet, whose JVMs count none unless their flags turn them on
     * (two JVMs closing their tracepoint counters at once stalled). Empty for a metric every trial measures, and
     * where nothing in the plan keeps it from being counted.
     */
    public static Optional<String> uncounted(String metric, ExperimentPlan plan) {
        Optional<HostCount> count = HostCount.of(metric);
        if (count.isEmpty()) {
            return Optional.empty();
        }
        String property = count.get().property();
        String flag = "-D" + property + "=";
        for (VariantName side : VariantName.values()) {
            if (!((side == VariantName.WITHOUT ? plan.without() : plan.with()) instanceof EngineVariant variant)) {
                return Optional.empty();
            }
            String value = KernelMeter.propertyIn(Stream.concat(plan.trialJvmArgs().stream(),
                    variant.jvmArgs().stream()).toList(), property).orElse(null);
            if ("false".equals(value)) {
                return Optional.of("the " + side.label() + " variant's trial JVMs are given " + flag + "false");
            }
            if (value == null && plan.design() == ExperimentDesign.DUET && count.get() == HostCount.SYSCALLS) {
                return Optional.of("a duet's trial JVMs count no system calls unless given " + flag + "true (two JVMs "
                        + "closing their tracepoint counters at once stalled), and the " + side.label()
                        + " variant's are not");
            }
        }
        return Optional.empty();
    }

    /**
     * A target such as {@code cpu_us_per_req:1.5%} or {@code user_cpu_us_per_req:settled}, on one of the
     * {@code known} metrics, or on any metric when {@code known} is empty (a command whose output is read).
     *
     * @throws IllegalArgumentException naming the forms a target takes, or the metrics it may name
     */
    public static SequentialStopping.Target target(String text, List<String> known) {
        // a target is stored as its text: check the target that text reads back as
        SequentialStopping.Target target = SequentialStopping.Target.parse(SequentialStopping.Target.parse(text)
                .toString());
        if (!known.isEmpty() && !known.contains(target.metric())) {
            throw new IllegalArgumentException("unknown metric '" + PrintableText.Validator.quoted(target.metric())
                    + "'; one of "
                    + String.join(", ", known));
        }
        return target;
    }

    /**
     * The targets {@code texts}, each as {@link #target} reads it, at most one per metric: looks are made per metric,
     * so a second target on one would never have its own, and nothing would stop early.
     *
     * @throws IllegalArgumentException as {@link #target}, or naming a metric given twice and both its targets
     */
    public static List<SequentialStopping.Target> targets(List<String> texts, List<String> known) {
        List<SequentialStopping.Target> targets = new ArrayList<>();
        Map<String, String> textByMetric = new HashMap<>();
        for (String text : texts) {
            SequentialStopping.Target target = target(text, known);
            String first = textByMetric.putIfAbsent(target.metric(), text);
            if (first != null) {
                throw new IllegalArgumentException("names the metric '" + target.metric() + "' twice ('" + first
                        + "' and '" + text + "'); give each metric one target");
            }
            targets.add(target);
        }
        return List.copyOf(targets);
    }

    /**
     * {@code 10m}, {@code 90s}, {@code 1h30m} or a number of seconds, more than 0 and at most a day.
     *
     * @throws IllegalArgumentException for anything else; the message starts with the verb ({@code takes …},
     *     {@code must …}, {@code is …}) so that a caller can put the flag or field in front
     */
    public static Duration budget(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        Matcher m = DURATION.matcher(t);
        if (t.isEmpty() || !m.matches()) {
            throw new IllegalArgumentException("takes a duration such as 10m, 90s or 1h30m, got '"
                    + PrintableText.Validator.quoted(text) + "'");
        }
        long seconds = 0;
        try {
            seconds = Math.addExact(seconds, Math.multiplyExact(group(m, 1), 3600));
            seconds = Math.addExact(seconds, Math.multiplyExact(group(m, 2), 60));
            seconds = Math.addExact(seconds, group(m, 3));
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("is too long: '" + PrintableText.Validator.quoted(text) + "'");
        }
        if (seconds <= 0 || seconds > Seconds.MAX.longValue()) {
            throw new IllegalArgumentException("must be more than 0 and at most a day, got '"
                    + PrintableText.Validator.quoted(text) + "'");
        }
        return Duration.ofSeconds(seconds);
    }

    private static long group(Matcher m, int group) {
        return m.group(group) == null ? 0 : Long.parseLong(m.group(group));
    }
}
