package io.perflab.runner.experiment;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.Deflater;

/**
 * Packs the folders of a trial class path (a test run, an IDE: compiled classes in {@code target/classes}) into
 * jars, because class-data sharing archives classes from jars only. Each folder becomes one uncompressed jar under
 * {@code cacheDir/classes}, named by the folder's path and its files' names, sizes and times, so a folder is packed
 * again only when its content changed (a jar is never rewritten: the archive made with it checks its size and
 * time). {@link FastStart} keeps the archives of packed class paths in the same folder, which holds the
 * {@link #KEPT} files made last. Measured on the 2-vCPU host with the test suite's trial flags, a trial JVM from such
 * a class path starts in 0.9–1.0 s with the archive against 1.5–1.8 s from the folders.
 */
final class FolderPacker {

    /** How many of the jars and archives made last are kept: those of a few states of a few class paths. */
    static final int KEPT = 24;
    /**
     * The most a folder may hold to be packed (the service's test classes are 17 MB): a class path that names a
     * project's whole tree is left to start from its folders rather than copied into the cache.
     */
    static final long MAX_FOLDER_BYTES = 256L << 20;

    private FolderPacker() {
    }

    /**
     * The class path of a {@code -cp} launcher with every folder replaced by its packed jar; elements that do not
     * exist are left out. Empty when the launcher has no folder to pack or something could not be read or written
     * (said to {@code log}).
     */
    static Optional<List<Path>> pack(List<String> entryArguments, Path cacheDir, Consumer<String> log) {
        return pack(entryArguments, cacheDir, MAX_FOLDER_BYTES, log);
    }

    /** As {@link #pack(List, Path, Consumer)} with folders of at most {@code maxBytes}. */
    static Optional<List<Path>> pack(List<String> entryArguments, Path cacheDir, long maxBytes,
                                     Consumer<String> log) {
        if (entryArguments.size() < 2 || !entryArguments.get(0).equals("-cp")) {
            return Optional.empty();
        }
        List<Path> jars = new ArrayList<>();
        boolean folders = false;
        Path directory = cacheDir.resolve("classes");
        try {
            for (String element : entryArguments.get(1).split(File.pathSeparator)) {
                Path path = Path.of(element).toAbsolutePath();
                if (element.isEmpty() || !Files.exists(path)) {
                    continue;
                }
                if (Files.isDirectory(path)) {
                    folders = true;
                    jars.add(packed(path, directory, maxBytes, log));
                } else if (element.endsWith(".jar") && Files.isRegularFile(path)) {
                    jars.add(path);
                } else {
                    return Optional.empty();
                }
            }
        } catch (IOException e) {
            log.accept("cannot pack the class path's folders into jars (" + e.getMessage() + "); trial JVMs start "
                    + "from the folders without a class-data sharing archive");
            return Optional.empty();
        }
        return folders ? Optional.of(jars) : Optional.empty();
    }

    /** The jar of {@code folder} as it is now under {@code directory}, packed now if it is not there. */
    private static Path packed(Path folder, Path directory, long maxBytes, Consumer<String> log) throws IOException {
        List<Path> files;
        try (Stream<Path> paths = Files.walk(folder)) {
            files = paths.filter(p -> !p.equals(folder)).sorted().toList();
        }
        long bytes = 0;
        for (Path path : files) {
            bytes += Files.isRegularFile(path) ? Files.size(path) : 0;
        }
        if (bytes > maxBytes) {
            throw new IOException(String.format(java.util.Locale.ROOT, "%s holds %,d bytes, more than the %,d a "
                    + "folder may hold to be packed", folder, bytes, maxBytes));
        }
        Path jar = directory.resolve(folder.getFileName() + "-" + FastStart.key(files, null) + ".jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        log.accept("packing " + folder + " into " + jar + " once, so that trial JVMs can share a class-data "
                + "sharing archive");
        Files.createDirectories(directory);
        Path temporary = Files.createTempFile(directory, jar.getFileName().toString(), ".tmp");
        try (OutputStream file = Files.newOutputStream(temporary); JarOutputStream out = new JarOutputStream(file)) {
            out.setLevel(Deflater.NO_COMPRESSION);
            for (Path path : files) {
                String name = folder.relativize(path).toString().replace(File.separatorChar, '/');
                boolean isFolder = Files.isDirectory(path);
                out.putNextEntry(new JarEntry(isFolder ? name + "/" : name));
                if (!isFolder) {
                    Files.copy(path, out);
                }
                out.closeEntry();
            }
        } catch (IOException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
        try {
            Files.move(temporary, jar, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
            // another JVM packed the same folder meanwhile: keep its jar, which an archive may already name
            Files.deleteIfExists(temporary);
        }
        return jar;
    }

    /** Deletes all but the {@link #KEPT} files of {@code directory} made last; what cannot be deleted stays. */
    static void prune(Path directory) {
        try (Stream<Path> paths = Files.list(directory)) {
            List<Path> files = paths.filter(Files::isRegularFile).sorted(Comparator.comparing(
                    FolderPacker::madeAt).reversed()).toList();
            for (Path path : files.subList(Math.min(KEPT, files.size()), files.size())) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException e) {
            // a cache that keeps a few files more is no failure
        }
    }

    private static FileTime madeAt(Path path) {
        try {
            return Files.getLastModifiedTime(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
