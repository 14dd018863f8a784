package io.perflab.cli;

import io.perflab.runner.trial.TrialMain;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code perflab trial …}: the entry point of a trial JVM forked by {@code ab} or the service. Its arguments are
 * those of {@code bench} ({@link io.perflab.runner.trial.TrialSpec}); it prints one result line.
 */
@Command(name = "trial", hidden = true,
        description = "Internal: run one trial in this JVM and print its result line (used by forked trial JVMs).",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:measured", "1:calls failed", "2:bad arguments", "3:not measured"})
final class TrialCommand implements java.util.concurrent.Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Unmatched
    private List<String> arguments = new ArrayList<>();

    @Override
    public Integer call() {
        return TrialMain.run(arguments, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
