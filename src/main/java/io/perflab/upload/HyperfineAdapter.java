package io.perflab.upload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * hyperfine's {@code --export-json}: each command's {@code times} (seconds) are the samples of metric
 * {@code time}; {@code user} and {@code system} become {@code user_time}/{@code system_time} when they are
 * per-run lists. hyperfine 1.x exports them as means only, and one number is not a sample, so those are skipped.
 * One command is one side of an upload, named by the command; two commands are {@code without} and {@code with},
 * in that order, named "first vs second". Runs whose {@code exit_codes} entry is non-zero (kept with
 * {@code --ignore-failure}) are samples of a failing command and are flagged with a warning. Results that are no list
 * or none, a result that is no object, without its command, with times that are no list, or with exit codes that are
 * no list or not one for each time are refused naming the result and the field.
 */
final class HyperfineAdapter implements FormatAdapter {

    @Override
    public UploadFormat format() {
        return UploadFormat.HYPERFINE;
    }

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        JsonNode root = JsonContent.read(content);
        JsonNode results = root.isObject() ? root.get("results") : null;
        if (results == null) {
            throw UploadFormats.wrongFormat(UploadFormat.HYPERFINE, content);
        }
        // an export whose results are not what hyperfine writes was "not in the format 'hyperfine' … found a JSON
        // object with the fields [results] (it looks like hyperfine)"
        if (!results.isArray() || results.isEmpty()) {
            throw new InvalidUploadException("results", "The hyperfine export's 'results' must be a list of each "
                    + "command's result, as hyperfine writes it; " + (results.isArray() ? "it is empty"
                    : NativeJsonAdapter.got(results)) + ".");
        }
        if (results.size() > 2) {
            throw new InvalidUploadException("results",
                    "The hyperfine export has " + results.size() + " commands; an upload "
                    + "compares two (the first is 'without', the second 'with'). Export each pair separately.");
        }
        Map<String, VariantSamples> variants = new LinkedHashMap<>();
        List<String> commands = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            JsonNode result = results.get(i);
            String at = UploadFields.index("results", i);
            if (!result.isObject()) {
                throw new InvalidUploadException(at, "hyperfine result " + (i + 1) + " must be an object, as hyperfine "
                        + "writes each command's; " + NativeJsonAdapter.got(result) + ".");
            }
            String command = command(result, "hyperfine result " + (i + 1), at);
            requireRunsOfTimes(result, "hyperfine result " + (i + 1) + " ('" + UploadText.shown(command) + "')", at);
            commands.add(command);
            SampleCollector samples = new SampleCollector(limits);
            add(samples, "time", result.get("times"), UploadFields.key(at, "times"));
            add(samples, "user_time", result.get("user"), UploadFields.key(at, "user"));
            add(samples, "system_time", result.get("system"), UploadFields.key(at, "system"));
            String side = results.size() == 1 ? variant : i == 0 ? ParsedUpload.WITHOUT : ParsedUpload.WITH;
            // named by its command, shortened as a benchmark's name is: a label holds at most 200 characters
            variants.put(side, new VariantSamples(results.size() == 1 && label != null ? label
                    : UploadFormats.shortened(command), samples.metrics()));
            failedRuns(command, side, result.get("exit_codes"), UploadFields.key(at, "exit_codes"))
                    .ifPresent(warnings::add);
        }
        String benchmark = UploadFormats.shortened(String.join(" vs ", commands));
        return new ParsedUpload(benchmark, null, variants, null, null, null, warnings);
    }

    /**
     * The command a result measured, which hyperfine writes for each: a result without one was named after its
     * metric, "time".
     *
     * @param where the result, for the message: "hyperfine result 2"
     * @param at the result's path, for the refusal's field: {@code results[1]}
     */
    private static String command(JsonNode result, String where, String at) {
        JsonNode command = result.get("command");
        if (command == null || !command.isString() || command.asString().isBlank()) {
            throw new InvalidUploadException(UploadFields.key(at, "command"),
                    where + ": 'command' must be the command hyperfine ran, as text; "
                    + NativeJsonAdapter.got(command) + ".");
        }
        return command.asString();
    }

    /**
     * Refuses times that are no list, and exit codes that are no list or not one for each time: hyperfine writes
     * one of each per run, and exit codes of other runs were counted as this command's. An export without exit
     * codes is taken, as before.
     *
     * @param where the result, for the message: "hyperfine result 2 ('sort --version')"
     * @param at the result's path, for the refusal's field: {@code results[1]}
     */
    private static void requireRunsOfTimes(JsonNode result, String where, String at) {
        JsonNode times = result.get("times");
        if (times == null || !times.isArray()) {
            throw new InvalidUploadException(UploadFields.key(at, "times"),
                    where + ": 'times' must be a list of each run's time in seconds, as "
                    + "hyperfine writes it; " + NativeJsonAdapter.got(times) + ".");
        }
        JsonNode exitCodes = result.get("exit_codes");
        if (exitCodes == null || exitCodes.isNull()) {
            return;
        }
        if (!exitCodes.isArray()) {
            throw new InvalidUploadException(UploadFields.key(at, "exit_codes"),
                    where + ": 'exit_codes' must be a list of each run's exit code, as "
                    + "hyperfine writes it, or left out; " + NativeJsonAdapter.got(exitCodes) + ".");
        }
        if (exitCodes.size() != times.size()) {
            throw new InvalidUploadException(UploadFields.key(at, "exit_codes"),
                    where + ": 'exit_codes' has " + exitCodes.size() + " entries and "
                    + "'times' " + times.size() + "; hyperfine writes one exit code for each run.");
        }
    }

    /**
     * "3 of 12 runs of 'cmd' ('with') exited with a non-zero status (2)…", when any did; hyperfine writes null for
     * a run ended by a signal.
     *
     * @param field where the exit codes are, for a refusal's field: {@code results[1].exit_codes}
     */
    private static Optional<String> failedRuns(String command, String side, JsonNode exitCodes, String field) {
        if (exitCodes == null || !exitCodes.isArray()) {
            return Optional.empty();
        }
        int failed = 0;
        Set<String> statuses = new LinkedHashSet<>();
        for (int i = 0; i < exitCodes.size(); i++) {
            JsonNode code = exitCodes.get(i);
            if (!code.isNull() && !(code.isIntegralNumber() && code.canConvertToInt())) {
                throw new InvalidUploadException(UploadFields.index(field, i),
                        "'exit_codes' of '" + UploadText.excerpt(command) + "' must hold "
                        + "whole numbers, or null for a run ended by a signal; found " + NativeJsonAdapter.kind(code)
                        + ".");
            }
            if (code.isNull() || code.intValue() != 0) {
                failed++;
                statuses.add(code.isNull() ? "ended by a signal" : String.valueOf(code.intValue()));
            }
        }
        if (failed == 0) {
            return Optional.empty();
        }
        return Optional.of(failed + " of " + exitCodes.size() + " runs of '" + UploadText.excerpt(command) + "' ('"
                + side + "') exited with a non-zero status (" + String.join(", ", statuses) + "), so its times "
                + "measure a failing command; fix the command, or upload only runs that succeed.");
    }

    /** @param field where {@code values} are, for a refusal's field: {@code results[1].times} */
    private static void add(SampleCollector samples, String key, JsonNode values, String field) {
        if (values == null || !values.isArray()) {
            return;
        }
        for (int i = 0; i < values.size(); i++) {
            JsonNode value = values.get(i);
            if (!value.isNumber()) {
                throw new InvalidUploadException(UploadFields.index(field, i),
                        "Metric '" + key + "': " + UploadText.excerpt(value.toString())
                        + " is not a number.");
            }
            samples.add(key, "s", false, value.doubleValue());
        }
    }
}
