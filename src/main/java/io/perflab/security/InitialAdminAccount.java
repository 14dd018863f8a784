package io.perflab.security;

import io.perflab.system.DataDirectoryEnvironmentPostProcessor;
import io.perflab.system.PerfLabProperties;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;


/**
 * On the first start (no users at all) creates the {@code admin} user with a random password, writes the password
 * to {@code <data-dir>/initial-admin-password} readable by the owner only, and logs it once — the convention
 * Jenkins made familiar. Later starts leave users alone.
 */
@Component
class InitialAdminAccount implements ApplicationRunner {

    static final String USERNAME = "admin";
    static final String PASSWORD_FILE = "initial-admin-password";

    private static final Logger log = LoggerFactory.getLogger(InitialAdminAccount.class);

    private final UserAccounts users;
    private final PasswordEncoder passwordEncoder;
    private final PerfLabProperties properties;
    private final SecureRandom random = new SecureRandom();

    InitialAdminAccount(UserAccounts users, PasswordEncoder passwordEncoder, PerfLabProperties properties) {
        this.users = users;
        this.passwordEncoder = passwordEncoder;
        this.properties = properties;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (users.count() > 0) {
            return;
        }
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        // hexadecimal: base64url's '-' could begin it, and `perflab token … --password -x…` reads that as an option
        String password = HexFormat.of().formatHex(bytes);
        try {
            users.create(USERNAME, passwordEncoder.encode(password), UserAccounts.Role.ADMIN);
        } catch (DuplicateKeyException e) {
            // another instance on the same database started at the same moment and created it: its password holds
            log.info("Another PerfLab instance created the user 'admin' at the same time; its password is in that "
                    + "instance's data directory");
            return;
        }
        Path file = properties.dataDirectory().resolve(PASSWORD_FILE);
        // the account is stored now: a password written nowhere and said nowhere would lock everyone out for good
        Optional<String> unwritten = writeOwnerOnly(file, password + System.lineSeparator());
        String banner = """

                *************************************************************
                PerfLab created the user 'admin' with the password:

                    {}

                {}
                Sign in and keep it somewhere safe.
                *************************************************************""";
        if (unwritten.isPresent()) {
            // a warning: a log kept at WARN, as services often keep theirs, must still show the only copy
            log.warn(banner, password, "It could not be written to " + file + " (" + unwritten.get()
                    + "), so this log is the only place it is.");
        } else {
            log.info(banner, password, "It is also in " + file + " (readable by you only).");
        }
    }

    /**
     * Writes {@code content} to {@code file}, readable by its owner only, making its directory where there is none
     * (the data directory of a service whose database lives elsewhere); what went wrong, if it could not.
     */
    private static Optional<String> writeOwnerOnly(Path file, String content) {
        String directory = DataDirectoryEnvironmentPostProcessor.problem(file.getParent());
        if (directory != null) {
            return Optional.of(directory);
        }
        try {
            Files.deleteIfExists(file);
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(file,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.createFile(file);
            }
            Files.writeString(file, content, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
            return Optional.empty();
        } catch (AccessDeniedException e) {
            return Optional.of("permission denied");
        } catch (IOException e) {
            return Optional.of(e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
                    : "it cannot be written");
        }
    }
}
