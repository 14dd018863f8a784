package io.perflab.upload;

import io.perflab.system.OnPostgres;

/** {@link UploadConcurrencyTests} on a real PostgreSQL: the same migrations, SQL and HTTP API. */
class UploadConcurrencyPostgresTests extends UploadConcurrencyTests implements OnPostgres {
}
