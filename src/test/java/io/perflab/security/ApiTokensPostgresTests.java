package io.perflab.security;

import io.perflab.system.OnPostgres;

/** {@link ApiTokensTests} on a real PostgreSQL: the same migrations, SQL and HTTP API. */
class ApiTokensPostgresTests extends ApiTokensTests implements OnPostgres {
}
