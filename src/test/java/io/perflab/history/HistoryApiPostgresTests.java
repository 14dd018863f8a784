package io.perflab.history;

import io.perflab.system.OnPostgres;

/** {@link HistoryApiTests} on a real PostgreSQL: the same migrations, SQL and HTTP API. */
class HistoryApiPostgresTests extends HistoryApiTests implements OnPostgres {
}
