package io.perflab.system;

import java.util.List;

/**
 * One page of a list the API answers with: the items, which page (from 0), its size and how many items match in
 * all, so that a client knows when it has read them all.
 *
 * @param <T> what the list holds
 */
public record ApiPage<T>(List<T> items, int page, int size, long total) {

    /** The most items a page may ask for. */
    public static final int MAX_SIZE = 200;

    /**
     * Checks the page and size a client asked for.
     *
     * @throws InvalidInputException naming the parameter, when the page is negative or the size outside 1 …
     *     {@value MAX_SIZE}
     */
    public static void check(int page, int size) {
        if (page < 0) {
            throw InvalidInputException.of("page", "must be ≥ 0, got " + page);
        }
        if (size < 1 || size > MAX_SIZE) {
            throw InvalidInputException.of("size", "must be between 1 and " + MAX_SIZE + ", got " + size);
        }
    }
}
