package io.perflab.system;

import java.time.Instant;

/**
 * The times PerfLab stores: from 1970 through year 9999, which H2 and PostgreSQL both keep and every page shows as a
 * date. A posted time outside them (year 999999999, a negative epoch) is refused instead of failing the store or
 * the page.
 */
public final class StorableTime {

    /** The last second of year 9999. */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private StorableTime() {
    }

    /** What is wrong with {@code time} as a stored time, e.g. "must lie between … and …, got …"; null if nothing. */
    public static String problem(Instant time) {
        return time.isBefore(Instant.EPOCH) || time.isAfter(LATEST)
                ? "must lie between " + Instant.EPOCH + " and " + LATEST + ", got " + time : null;
    }
}
