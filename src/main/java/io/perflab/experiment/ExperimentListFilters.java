package io.perflab.experiment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The experiments page's filters as its menus and boxes send them, and what they ask for that does not exist: a
 * status or kind no menu offers (typed into the address, or from a bookmark) is said back to the user with the
 * values there are, rather than dropped, which listed every experiment under a menu on "any".
 *
 * @param filter the experiments the page lists, when {@code unknown} is empty
 * @param unknown one sentence per value that names nothing, saying which values there are
 */
record ExperimentListFilters(ExperimentFilter filter, List<String> unknown) {

    static ExperimentListFilters of(String status, String kind, String name, String benchmark, boolean oldestFirst) {
        List<String> unknown = new ArrayList<>();
        ExperimentStatus statusFilter = parse("status", status, ExperimentStatus.class, Enum::name, unknown);
        ExperimentKind kindFilter = parse("kind", kind, ExperimentKind.class,
                k -> k.name().toLowerCase(Locale.ROOT), unknown);
        return new ExperimentListFilters(new ExperimentFilter(statusFilter, name, kindFilter, benchmark,
                oldestFirst), List.copyOf(unknown));
    }

    /** {@code value} as one of {@code type}'s constants in any case; null if blank or unknown (said in unknown). */
    private static <E extends Enum<E>> E parse(String field, String value, Class<E> type,
            Function<E, String> shown, List<String> unknown) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Enum.valueOf(type, value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            List<String> allowed = Arrays.stream(type.getEnumConstants()).map(shown).toList();
            unknown.add("There is no " + field + " '" + value + "': choose one of "
                    + String.join(", ", allowed.subList(0, allowed.size() - 1)) + " or "
                    + allowed.get(allowed.size() - 1) + ", or any " + field + ".");
            return null;
        }
    }
}
