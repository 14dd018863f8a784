package io.perflab.cli;

import io.perflab.system.Texts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * The files the command line reads — {@code compare}'s samples, {@code calibrate --from} and {@code --reference}: UTF-8
 * text, read whole; {@code upload}'s files as bytes, which the server decodes. What keeps a file from being read is
 * said in a few words, for the caller to put after the file's name (and its flag): no such file, a folder, a device,
 * larger than {@value #MAX_MIB} MiB, not UTF-8. A pipe ({@code compare <(…) b.txt}) is read up to the same bound; a
 * device such as {@code /dev/zero} is not read at all. A leading byte order mark is no part of the text.
 */
final class InputFiles {

    /** The most a file may hold, in MiB: a day of alternating pairs of three windows is about 50 MiB of JSON. */
    static final int MAX_MIB = 256;

    private static final int MAX_BYTES = MAX_MIB * 1024 * 1024;

    /** {@code S_IFMT} and {@code S_IFIFO} of {@code stat(2)}: a named or an anonymous pipe. */
    private static final int FILE_TYPE = 0170000;
    private static final int PIPE = 0010000;

    /** Why a file is not what it should be, without its name: the caller says which file (and which flag). */
    static final class BadInputException extends Exception {
        BadInputException(String reason) {
            super(reason);
        }
    }

    private InputFiles() {
    }

    /**
     * The text of {@code file}, without a leading byte order mark.
     *
     * @throws BadInputException saying why it cannot be read
     */
    static String text(Path file) throws BadInputException {
        String text = decoded(bytes(file));
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /**
     * The bytes of {@code file} as they are, read as {@link #text} reads them: a file or a pipe, of at most
     * {@value #MAX_MIB} MiB.
     *
     * @throws BadInputException saying why it cannot be read
     */
    static byte[] bytes(Path file) throws BadInputException {
        if (file.toString().isEmpty()) {
            // read as the working directory: "a folder, not a file"
            throw new BadInputException("an empty file name; give a file");
        }
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            if (attributes.isDirectory()) {
                throw new BadInputException("a folder, not a file");
            }
            if (attributes.isRegularFile() && attributes.size() > MAX_BYTES) {
                throw tooLarge();
            }
            if (attributes.isOther() && !pipe(file)) {
                throw new BadInputException("a device, not a file");
            }
            try (InputStream in = Files.newInputStream(file)) {
                byte[] bytes = in.readNBytes(MAX_BYTES + 1);
                if (bytes.length > MAX_BYTES) {
                    throw tooLarge();
                }
                return bytes;
            }
        } catch (NoSuchFileException e) {
            throw new BadInputException("no such file" + ("-".equals(file.toString()) ? " (- is a file name here; "
                    + "standard input is /dev/stdin, or a pipe such as <(command))" : ""));
        } catch (AccessDeniedException e) {
            throw new BadInputException("permission denied");
        } catch (FileSystemException e) {
            throw new BadInputException("cannot be read (" + (e.getReason() == null ? "no reason given"
                    : e.getReason()) + ")");
        } catch (IOException e) {
            throw new BadInputException("cannot be read (" + e.getMessage() + ")");
        }
    }

    /** Whether {@code file} is a pipe; where the file system cannot say, it is taken for one, read up to the bound. */
    private static boolean pipe(Path file) {
        try {
            return ((Integer) Files.getAttribute(file, "unix:mode") & FILE_TYPE) == PIPE;
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException | ClassCastException e) {
            return true;
        }
    }

    private static BadInputException tooLarge() {
        return new BadInputException("larger than " + MAX_MIB + " MiB, more than any file of samples or trials "
                + "holds; this command reads files of at most " + MAX_MIB + " MiB");
    }

    /** {@code bytes} as UTF-8, or where they are not: the first byte that is not, and its offset. */
    private static String decoded(byte[] bytes) throws BadInputException {
        try {
            return Texts.utf8(bytes);
        } catch (Texts.NotUtf8Exception e) {
            int offset = e.offset();
            boolean utf16 = bytes.length >= 2 && ((bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE)
                    || (bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF));
            throw new BadInputException(String.format(Locale.ROOT, "not UTF-8 text (byte 0x%02X at offset %d)%s",
                    bytes[offset] & 0xFF, offset, utf16 ? "; it is UTF-16: save it as UTF-8" : ""));
        }
    }
}
