package io.perflab.cli;

import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.MetricsReader;
import io.perflab.upload.OutputMetricsReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The flags of a command experiment of {@code perflab ab}: each side's shell command, working directory and
 * environment, and the format the commands print their own metrics in. Mistakes are {@link ParameterException}s
 * naming the flag.
 */
final class CommandOptions {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec mixee;

    @Option(names = "--with-cmd", paramLabel = "\"command\"",
            description = "Command experiment: the change, run with /bin/sh -c once per trial.")
    private String withCommand;

    @Option(names = "--without-cmd", paramLabel = "\"command\"",
            description = "Command experiment: the baseline, run with /bin/sh -c once per trial.")
    private String withoutCommand;

    @Option(names = "--metrics", paramLabel = "rpcbench|jmh|gobench|googlebenchmark|hyperfine|csv|json",
            description = "Command experiment: read each run's metrics from what it prints in this format (the "
                    + "formats of 'perflab upload'), each metric's mean per run a sample, beside the run's own CPU "
                    + "and context switches. A command that writes its results to a file names it {output}: a fresh "
                    + "file per run, read instead of standard output.")
    private String metricsFormat;

    @Option(names = "--without-dir", paramLabel = "DIR", description = "Command experiment: the baseline's working "
            + "directory (default: the current one).")
    private Path withoutDirectory;

    @Option(names = "--with-dir", paramLabel = "DIR", description = "Command experiment: the change's working "
            + "directory (default: the current one).")
    private Path withDirectory;

    @Option(names = "--without-env", paramLabel = "NAME=value", description = "Command experiment: an environment "
            + "variable of the baseline's runs, repeatable.")
    private List<String> withoutEnvironment = new ArrayList<>();

    @Option(names = "--with-env", paramLabel = "NAME=value", description = "Command experiment: an environment "
            + "variable of the change's runs, repeatable.")
    private List<String> withEnvironment = new ArrayList<>();

    /** Whether any flag of a command experiment was given. */
    boolean given() {
        return withCommand != null || withoutCommand != null || metricsFormat != null || withoutDirectory != null
                || withDirectory != null || !withoutEnvironment.isEmpty() || !withEnvironment.isEmpty();
    }

    /** Whether the commands' runs print metrics of their own, whose names are known only once they ran. */
    boolean readsOutput() {
        return metricsFormat != null;
    }

    /** The baseline and the change these flags describe, in that order. */
    List<CommandVariant> variants() {
        if (withCommand == null || withoutCommand == null) {
            throw usage("a command experiment needs both --with-cmd and --without-cmd");
        }
        Optional<String> format = Optional.ofNullable(metricsFormat).map(String::strip);
        MetricsReader reader = new OutputMetricsReader();
        if (format.isPresent() && !reader.formats().contains(format.get())) {
            throw usage("--metrics must be one of " + String.join(", ", reader.formats()) + ", got '" + metricsFormat
                    + "'");
        }
        List<CommandVariant> variants = new ArrayList<>();
        variants.add(variant("--without", withoutCommand, format, withoutDirectory, withoutEnvironment));
        variants.add(variant("--with", withCommand, format, withDirectory, withEnvironment));
        return variants;
    }

    private CommandVariant variant(String side, String command, Optional<String> format, Path directory,
                                   List<String> environment) {
        if (directory != null && !Files.isDirectory(directory)) {
            throw usage(side + "-dir: no directory '" + directory + "'");
        }
        Map<String, String> variables = new LinkedHashMap<>();
        for (String assignment : environment) {
            int equals = assignment.indexOf('=');
            if (equals <= 0) {
                throw usage(side + "-env takes NAME=value, got '" + assignment + "'");
            }
            String previous = variables.put(assignment.substring(0, equals), assignment.substring(equals + 1));
            if (previous != null) {
                throw usage(side + "-env sets " + assignment.substring(0, equals) + " twice ('" + previous + "' and '"
                        + assignment.substring(equals + 1) + "'); give each variable once");
            }
        }
        try {
            return new CommandVariant(command, format, Optional.ofNullable(directory).map(Path::toAbsolutePath),
                    variables);
        } catch (IllegalArgumentException e) {
            String flag = e.getMessage().contains("environment") ? side + "-env" : side + "-cmd";
            throw usage(flag + ": " + e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(mixee.commandLine(), message);
    }
}
