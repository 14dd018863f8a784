package io.perflab.stats;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cases of {@code src/test/resources/stats/cases.txt} (and of {@code paired_cases.txt}): inputs and GNU R
 * 4.2.2's results, written by {@code src/test/resources/stats/reference.R} (and {@code paired_reference.R}) with
 * {@code sprintf('%.17g')}.
 */
final class ReferenceCases {

    /** One case: the raw fields of each line keyed by its first word. */
    record Case(String name, double[] with, double[] without, Alternative alternative, double confidenceLevel,
            Map<String, String[]> lines) {

        double[] numbers(String key) {
            String[] f = lines.get(key);
            double[] v = new double[f.length];
            for (int i = 0; i < f.length; i++) {
                v[i] = parse(f[i]);
            }
            return v;
        }

        String[] fields(String key) {
            return lines.get(key);
        }

        /** R's print-out of the case's test, as captured by {@code capture.output(print(h))}. */
        String print(String test) {
            String resource = "/stats/print/" + name + "." + test + ".txt";
            try (InputStream in = ReferenceCases.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("missing " + resource);
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private ReferenceCases() {
    }

    static double parse(String s) {
        return switch (s) {
            case "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(s);
        };
    }

    static List<Case> all() {
        return all("/stats/cases.txt");
    }

    /** The cases of the paired t-test, {@code paired_cases.txt}. */
    static List<Case> paired() {
        return all("/stats/paired_cases.txt");
    }

    private static List<Case> all(String resource) {
        List<Case> cases = new ArrayList<>();
        try (InputStream in = ReferenceCases.class.getResourceAsStream(resource)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String[]> lines = null;
            String name = null;
            for (String line : text.split("\n")) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] words = line.trim().split(" ");
                String key = words[0];
                String[] rest = Arrays.copyOfRange(words, 1, words.length);
                if (key.equals("case")) {
                    name = rest[0];
                    lines = new HashMap<>();
                } else if (key.equals("end")) {
                    Case c = new Case(name, null, null, Alternative.parse(lines.get("alternative")[0]),
                            parse(lines.get("conf")[0]), lines);
                    cases.add(new Case(name, c.numbers("with"), c.numbers("without"), c.alternative(),
                            c.confidenceLevel(), lines));
                } else {
                    lines.put(key, rest);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return cases;
    }

    static Case named(String name) {
        return all().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }
}
