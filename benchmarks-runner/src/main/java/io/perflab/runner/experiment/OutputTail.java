package io.perflab.runner.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Drains a child's output stream on its own thread so the child never blocks on a full pipe, keeping the last
 * lines for error messages and handing lines a {@code claim} predicate accepts to the caller instead.
 *
 * <p>A line ends at {@code \n}, {@code \r\n} or {@code \r}, as {@link java.io.BufferedReader#readLine()} reads it,
 * but no line is ever held whole: only its first characters are kept ({@value #MAX_CLAIMED_LINE_CHARS} for a
 * claim, just enough to cut it for the tail otherwise) and the rest is read and dropped up to the next line break.
 * A child that writes hundreds of megabytes without a line break costs this reader no more memory than a short
 * line does.
 */
final class OutputTail {

    static final int MAX_LINES = 30;
    static final int MAX_LINE_CHARS = 400;
    /**
     * The most of a line a {@code claim} predicate is shown: far more than the longest protocol line (a driven
     * trial's window line, a few kilobytes of figures and environment), so that only a line no trial writes is cut.
     */
    static final int MAX_CLAIMED_LINE_CHARS = 1 << 20;
    /** Enough of a line to cut it as {@link #cut} does: one character over shows that it was longer. */
    private static final int TAIL_LINE_CHARS = MAX_LINE_CHARS + 1;
    private static final int CHUNK_CHARS = 8192;

    private final Deque<String> lines = new ArrayDeque<>();
    private final Thread thread;

    private OutputTail(InputStream stream, String name, Predicate<String> claim, int lineChars, Runnable atEnd) {
        thread = new Thread(() -> {
            drain(stream, claim, lineChars);
            atEnd.run();
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts draining {@code stream}, keeping its last lines. */
    static OutputTail start(InputStream stream, String name) {
        return new OutputTail(stream, name, line -> false, TAIL_LINE_CHARS, () -> { });
    }

    /**
     * Starts draining {@code stream}; lines {@code claim} returns true for are not kept in the tail. {@code claim}
     * sees at most the first {@value #MAX_CLAIMED_LINE_CHARS} characters of a line.
     */
    static OutputTail start(InputStream stream, String name, Predicate<String> claim) {
        return new OutputTail(stream, name, claim, MAX_CLAIMED_LINE_CHARS, () -> { });
    }

    /** As {@link #start(InputStream, String, Predicate)}, running {@code atEnd} once the stream has ended. */
    static OutputTail start(InputStream stream, String name, Predicate<String> claim, Runnable atEnd) {
        return new OutputTail(stream, name, claim, MAX_CLAIMED_LINE_CHARS, atEnd);
    }

    private void drain(InputStream stream, Predicate<String> claim, int lineChars) {
        try (Reader reader = new InputStreamReader(stream, StandardCharsets.UTF_8)) {
            char[] chunk = new char[CHUNK_CHARS];
            StringBuilder line = new StringBuilder();
            boolean afterCarriageReturn = false;
            int read;
            while ((read = reader.read(chunk)) != -1) {
                int from = 0;
                if (afterCarriageReturn && read > 0 && chunk[0] == '\n') {
                    from = 1; // the \n of a \r\n split between two reads
                }
                afterCarriageReturn = false;
                while (from < read) {
                    int end = from;
                    while (end < read && chunk[end] != '\n' && chunk[end] != '\r') {
                        end++;
                    }
                    line.append(chunk, from, Math.min(end - from, Math.max(0, lineChars - line.length())));
                    if (end == read) {
                        break;
                    }
                    take(line.toString(), claim);
                    line.setLength(0);
                    from = end + 1;
                    if (chunk[end] == '\r') {
                        if (from < read && chunk[from] == '\n') {
                            from++;
                        } else if (from == read) {
                            afterCarriageReturn = true;
                        }
                    }
                }
            }
            // a last line without its line break (a line holds at least one character once begun)
            if (line.length() > 0) {
                take(line.toString(), claim);
            }
        } catch (IOException closed) {
            // the process was killed or its stream closed: what was read is all there is
        }
    }

    private void take(String line, Predicate<String> claim) {
        if (!claim.test(line)) {
            keep(line);
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
