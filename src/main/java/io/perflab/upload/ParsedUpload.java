package io.perflab.upload;

import io.perflab.runner.experiment.VariantName;
import io.perflab.system.PrintableText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a format adapter read from an upload, before validation.
 *
 * @param benchmark the benchmark's name, or null when the content does not say (the caller must then)
 * @param name the experiment's title, or null
 * @param variants {@code without} and/or {@code with}, each with its metrics
 * @param git the commit measured
 * @param machine what the harness said about the machine and runtime: Go's {@code goos}, {@code goarch},
 *     {@code cpu}, {@code pkg}; Google Benchmark's {@code host_name}, {@code num_cpus}, {@code library_build_type};
 *     JMH's {@code jdkVersion}, {@code vmName}; or the native JSON's free-form object
 * @param tags free-form labels
 * @param warnings what the uploader should know about the numbers (a debug build, failed runs, entries left out),
 *     in the user's terms, what they quote {@link PrintableText.Validator#shown shown}; empty when all is well
 */
public record ParsedUpload(String benchmark, String name, Map<String, VariantSamples> variants, GitInfo git,
                           Map<String, Object> machine, List<String> tags, List<String> warnings) {

    public static final String WITHOUT = VariantName.WITHOUT.label();
    public static final String WITH = VariantName.WITH.label();

    public ParsedUpload {
        variants = Collections.unmodifiableMap(new LinkedHashMap<>(variants));
        git = git == null ? GitInfo.NONE : git;
        machine = machine == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(machine));
        tags = tags == null ? List.of() : List.copyOf(tags);
        // a warning quotes the output (an error message, a command): shown on pages and terminals, its control
        // characters and those that hide or reorder text are escapes, as in every message about an upload
        warnings = warnings == null ? List.of() : warnings.stream().map(PrintableText.Validator::shown).toList();
    }

    /** An upload without warnings. */
    public ParsedUpload(String benchmark, String name, Map<String, VariantSamples> variants, GitInfo git,
                        Map<String, Object> machine, List<String> tags) {
        this(benchmark, name, variants, git, machine, tags, null);
    }

    /** An upload of one side only (harness output), stored as {@code variant}. */
    static ParsedUpload single(String benchmark, String variant, String label, Map<String, MetricSamples> metrics) {
        return new ParsedUpload(benchmark, null, Map.of(variant, new VariantSamples(label, metrics)), null, null,
                null);
    }

    ParsedUpload withBenchmark(String benchmark) {
        return new ParsedUpload(benchmark, name, variants, git, machine, tags, warnings);
    }

    ParsedUpload withMachine(Map<String, Object> machine) {
        return new ParsedUpload(benchmark, name, variants, git, machine, tags, warnings);
    }

    /** This, with {@code more} after the warnings it has. */
    ParsedUpload withWarnings(List<String> more) {
        List<String> all = new ArrayList<>(warnings);
        all.addAll(more);
        return new ParsedUpload(benchmark, name, variants, git, machine, tags, all);
    }

    /**
     * One upload of two files, each one side: the benchmark, name, machine and tags of {@code with} (else
     * {@code without}'s benchmark and git fields), and the warnings of both, each saying its file.
     */
    static ParsedUpload pair(ParsedUpload without, ParsedUpload with) {
        Map<String, VariantSamples> variants = new LinkedHashMap<>();
        variants.put(WITHOUT, without.variants().values().iterator().next());
        variants.put(WITH, with.variants().values().iterator().next());
        List<String> warnings = new ArrayList<>();
        without.warnings().forEach(w -> warnings.add("'" + WITHOUT + "' file: " + w));
        with.warnings().forEach(w -> warnings.add("'" + WITH + "' file: " + w));
        return new ParsedUpload(with.benchmark() != null ? with.benchmark() : without.benchmark(), with.name(),
                variants, with.git().orElse(without.git()), with.machine(), with.tags(), warnings);
    }

    boolean bothVariants() {
        return variants.containsKey(WITHOUT) && variants.containsKey(WITH);
    }

    int sampleCount() {
        return variants.values().stream().mapToInt(VariantSamples::sampleCount).sum();
    }
}
