package io.perflab.runner.experiment;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Drains a child's output stream on its own thread so the child never blocks on a full pipe, keeping the last
 * lines for error messages and handing lines a {@code claim} predicate accepts to the caller instead.
 */
final class OutputTail {

    static final int MAX_LINES = 30;
    static final int MAX_LINE_CHARS = 400;

    private final Deque<String> lines = new ArrayDeque<>();
    private final Thread thread;

    private OutputTail(InputStream stream, String name, Predicate<String> claim, Runnable atEnd) {
        thread = new Thread(() -> {
            drain(stream, claim);
            atEnd.run();
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts draining {@code stream}; lines {@code claim} returns true for are not kept in the tail. */
    static OutputTail start(InputStream stream, String name, Predicate<String> claim) {
        return new OutputTail(stream, name, claim, () -> { });
    }

    /** As {@link #start(InputStream, String, Predicate)}, running {@code atEnd} once the stream has ended. */
    static OutputTail start(InputStream stream, String name, Predicate<String> claim, Runnable atEnd) {
        return new OutputTail(stream, name, claim, atEnd);
    }

    private void drain(InputStream stream, Predicate<String> claim) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!claim.test(line)) {
                    keep(line);
                }
            }
        } catch (IOException closed) {
            // the process was killed or its stream closed: what was read is all there is
        }
    }

    private synchronized void keep(String line) {
        if (line.isBlank()) {
            return;
        }
        lines.addLast(cut(line));
        while (lines.size() > MAX_LINES) {
            lines.removeFirst();
        }
    }

    /** {@code line}, cut to {@value #MAX_LINE_CHARS} characters and an ellipsis when longer. */
    static String cut(String line) {
        return line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) + "…" : line;
    }

    /**
     * Waits until the stream ended; a grandchild that inherited the pipe may keep it open, so the wait is
     * bounded.
     */
    void awaitEnd(long timeout, TimeUnit unit) throws InterruptedException {
        thread.join(unit.toMillis(timeout));
    }

    /** The last lines read, newline-separated; empty if none. */
    synchronized String text() {
        return String.join("\n", lines);
    }
}
