package archfixture.web;

import java.util.List;

/**
 * Breaks the input rule on purpose: cuts a name with {@code trim()}, which drops a control character unseen, once by
 * a call and once by a method reference.
 */
public final class FixtureInput {

    private FixtureInput() {
    }

    public static String name(String text) {
        return text.trim();
    }

    public static List<String> names(List<String> texts) {
        return texts.stream().map(String::trim).toList();
    }
}
