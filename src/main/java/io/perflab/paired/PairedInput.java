package io.perflab.paired;

import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.metering.KernelMeter;
import io.perflab.runner.rpcbench.HostCount;
import io.perflab.runner.rpcbench.Seconds;
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
     * soon as CPU per request is settled or a change of 2 % of it is unlikely ({@link #DEFAULT_TARGET}). With
     * {@link #DEFAULT_WINDOWS_PER_PAIR} windows of
     * {@code Workload.PAIRED_DEFAULTS} a pair takes about 43 s on a 2-vCPU host; twenty fresh A/A experiments of it
     * kept every headline metric's false-positive rate within 0.10, and ten found an injected +2.9 % every time after
     * 15.5 pairs at the median (docs/PERFORMANCE.md, "The sequential experiment of at most 20 pairs, fresh").
     */
    public static final int DEFAULT_PAIRS = 20;

    /**
     * The target of a paired engine experiment that names neither its pairs nor a target: it stops once the verdict
     * on CPU per request, the metric every engine change is judged by first, is settled, or once a change of ±2 % is
     * unlikely to be found by the last pair (futile). 2 % is about what the default's 20 pairs resolve on a 2-vCPU
     * host (an MDE of 2.3–2.4 %). Judged on the stored trials of the campaigns that made the default, the futility
     * stop ended the A/A experiments after 15.5 of 20 pairs at the median and found the +1.98 % known effect in the
     * same 6 of 10 experiments as stopping on significance alone; it can only take rejections away, so the measured
     * false-positive rates bound its own (docs/PERFORMANCE.md, "The futility stop built").
     */
    public static final String DEFAULT_TARGET = "cpu_us_per_req:mde=2%";

    /** {@link #DEFAULT_TARGET} as a format string writes it (picocli's help texts): its % doubled. */
    public static final String DEFAULT_TARGET_FORMATTED = "cpu_us_per_req:mde=2%%";

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
     * pairs nor a target, {@link #DEFAULT_TARGET}. Naming the pairs without a target asks for that many pairs, all
     * run; a budget alone keeps the default target.
     */
    public static List<String> targetsOrDefault(List<String> given, boolean pairsGiven, boolean command) {
        return given.isEmpty() && !pairsGiven && !command ? List.of(DEFAULT_TARGET) : given;
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
