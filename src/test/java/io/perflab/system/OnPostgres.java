package io.perflab.system;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Runs a test class of the whole server ({@code UploadServer}'s subclasses) on a real PostgreSQL: every class that
 * implements this shares one Spring context on one database of {@link EmbeddedPostgres}, as the H2 classes share
 * theirs, since Spring keys its context cache on this one method.
 */
public interface OnPostgres {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) {
        EmbeddedPostgres.register(registry);
    }
}
