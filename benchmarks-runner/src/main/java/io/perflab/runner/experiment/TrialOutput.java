package io.perflab.runner.experiment;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** What a trial process printed, as errors quote it. */
final class TrialOutput {

    private static final long DRAIN_SECONDS = 2;

    private TrialOutput() {
    }

    /** Waits for each stream to end; a grandchild that inherited a pipe may keep it open, so each wait is bounded. */
    static void drain(OutputTail... tails) {
        try {
            for (OutputTail tail : tails) {
                tail.awaitEnd(DRAIN_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last lines of standard error, or of standard output when the process wrote no error. */
    static String tail(OutputTail stderr, OutputTail stdout) {
        String err = stderr.text();
        return err.isEmpty() ? stdout.text() : err;
    }

    /** {@code tail} as the end of an error message; empty when there is none. */
    static String suffix(String tail) {
        return tail.isEmpty() ? "" : "\n--- last output ---\n" + tail;
    }

    /** The last {@value OutputTail#MAX_LINES} non-blank lines of {@code text}, each cut as {@link OutputTail} cuts. */
    static String lastLines(String text) {
        List<String> lines = text.lines().filter(line -> !line.isBlank()).map(OutputTail::cut).toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - OutputTail.MAX_LINES), lines.size()));
    }

    static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
