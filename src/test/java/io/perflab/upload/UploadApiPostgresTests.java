package io.perflab.upload;

import io.perflab.system.OnPostgres;

/** {@link UploadApiTests} on a real PostgreSQL: the same migrations, SQL and HTTP API. */
class UploadApiPostgresTests extends UploadApiTests implements OnPostgres {
}
