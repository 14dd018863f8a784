package io.perflab.experiment;

import io.perflab.system.PageNumber;
import io.perflab.system.PrintableText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The experiments page's filters, sort and page number as its menus, boxes and pager send them, and what they ask for
 * that does not exist: a status or kind no menu offers, a sort other than newest or oldest first, or a page number
 * that is no whole number from 0 (typed into the address, or from a bookmark) is said back to the user with the
 * values there are, rather than dropped, which listed every experiment under a menu on "any".
 *
 * @param filter the experiments the page lists, when {@code unknown} is empty
 * @param page the page asked for, from 0; 0 when the number given was not one
 * @param unknown one sentence per value that names nothing, saying which values there are
 */
record ExperimentListFilters(ExperimentFilter filter, int page, List<String> unknown) {

    static final String NEWEST_FIRST = "newest";
    static final String OLDEST_FIRST = "oldest";

    static ExperimentListFilters of(String status, String kind, String name, String benchmark, String sort,
            String page) {
        List<String> unknown = new ArrayList<>();
        ExperimentStatus statusFilter = parse("status", status, ExperimentStatus.class, Enum::name, unknown);
        ExperimentKind kindFilter = parse("kind", kind, ExperimentKind.class,
                k -> k.name().toLowerCase(Locale.ROOT), unknown);
        boolean oldestFirst = oldestFirst(sort, unknown);
        int pageNumber = pageNumber(page, unknown);
        return new ExperimentListFilters(new ExperimentFilter(statusFilter, name, kindFilter, benchmark,
                oldestFirst), pageNumber, List.copyOf(unknown));
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
            unknown.add("There is no " + field + " '" + PrintableText.Validator.quoted(value) + "': choose one of "
                    + String.join(", ", allowed.subList(0, allowed.size() - 1)) + " or "
                    + allowed.get(allowed.size() - 1) + ", or any " + field + ".");
            return null;
        }
    }

    /** Whether {@code sort} asks for the oldest first; blank is the newest first, anything else is unknown. */
    private static boolean oldestFirst(String sort, List<String> unknown) {
        if (sort == null || sort.isBlank() || sort.strip().equalsIgnoreCase(NEWEST_FIRST)) {
            return false;
        }
        if (sort.strip().equalsIgnoreCase(OLDEST_FIRST)) {
            return true;
        }
        unknown.add("There is no sort '" + PrintableText.Validator.quoted(sort) + "': choose " + NEWEST_FIRST + " or "
                + OLDEST_FIRST + ".");
        return false;
    }

    /** {@code page} as a page number from 0; blank is the first page, anything else is said in unknown. */
    private static int pageNumber(String page, List<String> unknown) {
        Integer number = PageNumber.parse(page);
        if (number == null) {
            unknown.add(PageNumber.notOne(page));
            return 0;
        }
        return number;
    }
}
