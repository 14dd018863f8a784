package io.perflab.archfixture.web;

/** Breaks the input rule on purpose: cuts a name with {@code trim()}, which drops a control character unseen. */
public final class FixtureInput {

    private FixtureInput() {
    }

    public static String name(String text) {
        return text.trim();
    }
}
