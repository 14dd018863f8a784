package io.perflab.security;

import io.perflab.system.EmbeddedPostgres;

/** {@link SignInThrottleTests} on a real PostgreSQL: the same migrations and SQL, and its row locks in the races. */
class SignInThrottlePostgresTests extends SignInThrottleTests {

    @Override
    String[] newDatabase() {
        EmbeddedPostgres.Database database = EmbeddedPostgres.newDatabase();
        return new String[] {database.url(), database.username(), database.password()};
    }
}
