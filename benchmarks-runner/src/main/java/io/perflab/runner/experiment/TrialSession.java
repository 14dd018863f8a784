package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialProtocol;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One driven trial JVM of a pair ({@link TrialProtocol}): its process, the commands written to its standard input,
 * and the protocol lines it prints, handed as {@link Event}s to a queue it shares with its partner, so that the
 * runner hears at once from whichever JVM speaks or dies first.
 */
final class TrialSession {

    /**
     * A protocol line of one JVM of the pair, or the end of its output (the process is gone).
     *
     * @param side the variant whose JVM it is
     * @param line the line; null at the end of the output
     */
    record Event(VariantName side, String line) {

        boolean ended() {
            return line == null;
        }
    }

    /** How long a killed JVM may take to be gone. */
    private static final long EXIT_AFTER_KILL_MILLIS = 5_000;

    private final VariantName side;
    private final List<String> command;
    private final Process process;
    private final Writer commands;
    private final OutputTail stdout;
    private final OutputTail stderr;
    private final TrialProcesses processes;

    private TrialSession(VariantName side, List<String> command, Process process, BlockingQueue<Event> events,
                         TrialProcesses processes) {
        this.side = side;
        this.command = command;
        this.process = process;
        this.processes = processes;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        String name = "trial-" + side.label() + "-" + process.pid();
        this.stdout = OutputTail.start(process.getInputStream(), name + "-stdout", line -> {
            if (TrialProtocol.isProtocolLine(line)) {
                events.add(new Event(side, line));
                return true;
            }
            return false;
        }, () -> events.add(new Event(side, null)));
        this.stderr = OutputTail.start(process.getErrorStream(), name + "-stderr");
    }

    /**
     * Starts the JVM of {@code command}; it is tracked by {@code processes} (so that cancelling kills it) until
     * {@link #end}.
     *
     * @throws IOException if the process cannot be started
     */
    static TrialSession start(VariantName side, List<String> command, BlockingQueue<Event> events,
                              TrialProcesses processes) throws IOException {
        Process process = new ProcessBuilder(command).start();
        processes.track(process);
        return new TrialSession(side, command, process, events, processes);
    }

    VariantName side() {
        return side;
    }

    long pid() {
        return process.pid();
    }

    String command() {
        return String.join(" ", command);
    }

    /**
     * Writes one command line.
     *
     * @throws IOException when the JVM no longer reads (it died)
     */
    void send(String line) throws IOException {
        commands.write(line + "\n");
        commands.flush();
    }

    /** Waits up to {@code millis} for the process to exit on its own; returns its exit status, or null if alive. */
    Integer awaitExit(long millis) {
        try {
            return process.waitFor(millis, TimeUnit.MILLISECONDS) ? process.exitValue() : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Kills the JVM's process tree if it still runs, waits for it to go, collects its output and forgets it. */
    void end() {
        if (process.isAlive()) {
            ProcessTree.kill(process.toHandle());
            awaitExit(EXIT_AFTER_KILL_MILLIS);
        }
        TrialOutput.drain(stdout, stderr);
        processes.forget(process);
    }

    /** What the JVM printed last, for an error message. */
    String tail() {
        return TrialOutput.tail(stderr, stdout);
    }
}
