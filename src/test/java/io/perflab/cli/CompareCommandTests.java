package io.perflab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTests {

    @TempDir
    Path dir;

    record Run(int status, String out, String err) {
    }

    private Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 1];
        all[0] = "compare";
        System.arraycopy(args, 0, all, 1, args.length);
        int status = PerfLabCommand.commandLine(new PrintWriter(out), new PrintWriter(err)).execute(all);
        return new Run(status, out.toString(), err.toString());
    }

    /** Writes the with/without samples of a reference case (src/test/resources/stats/cases.txt) as plain files. */
    private Path[] caseFiles(String name) throws IOException {
        return caseFiles("/stats/cases.txt", name);
    }

    private Path[] caseFiles(String resource, String name) throws IOException {
        try (InputStream in = getClass().getResourceAsStream(resource)) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].equals("case " + name)) {
                    Path with = dir.resolve(name + "-with.txt");
                    Path without = dir.resolve(name + "-without.txt");
                    Files.writeString(with, numbers(lines[i + 1]));
                    Files.writeString(without, "# baseline\n" + numbers(lines[i + 2]));
                    return new Path[] {without, with};
                }
            }
        }
        throw new IllegalArgumentException(name);
    }

    private static String numbers(String line) {
        return Arrays.stream(line.split(" ")).skip(1).collect(Collectors.joining("\n", "", "\n"));
    }

    private static String r(String name) throws IOException {
        try (InputStream in = CompareCommandTests.class.getResourceAsStream("/stats/print/" + name + ".txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * {@code compare --help} showed picocli's placeholders ({@code --alpha=<alpha>}) where the other commands name
     * what a flag takes, and did not say which alternative is the default.
     */
    @Test
    void helpNamesWhatEachFlagTakesAndTheDefaultAlternative() {
        Run help = run("--help");

        assertThat(help.status()).isZero();
        assertThat(help.out()).doesNotContain("=<").contains("--alpha=A", "--confidence=LEVEL", "--margin=PERCENT",
                "--format=table|r|json", "--alternative=two-sided|less|greater");
        assertThat(help.out().replaceAll("\\s+", " ")).contains("alternative hypothesis of the tests: two-sided "
                + "(default), less (WITH lower than WITHOUT) or greater (WITH higher)");
    }

    @Test
    void printsTheVerdictTableForPlainFiles() throws IOException {
        Path[] files = caseFiles("unequal_variances");
        Run run = run(files[0].toString(), files[1].toString());
        assertThat(run.status()).isZero();
        String[] lines = run.out().split("\n");
        assertThat(lines[0]).startsWith("metric").contains("without", "with", "Δ", "95% CI of Δ", "p", "verdict");
        // Expected p: R 4.2.2 t.test(with, without)$p.value = 2.2569682322673347e-06 (cases.txt)
        assertThat(lines[1]).startsWith("value").contains("17.9 ± ", "(n=40)", "-5.24%", "2.257e-06",
                "improved [1]");
        assertThat(run.out()).contains("[1] value: Welch p = 2.257e-06 < α = 0.05");
    }

    @Test
    void formatRPrintsRsTTestBlock() throws IOException {
        Path[] files = caseFiles("context_switches");
        Run run = run("--format", "r", files[0].toString(), files[1].toString());
        assertThat(run.status()).isZero();
        // Expected: R 4.2.2 print(t.test(with, without)) (print/context_switches.welch.txt)
        assertThat(run.out()).isEqualTo("## value\n" + r("context_switches.welch"));
    }

    @Test
    void formatJsonUsesTheApiFieldNames() throws IOException {
        Path[] files = caseFiles("n2_vs_3");
        Run run = run("--format", "json", files[0].toString(), files[1].toString());
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("\"metric\" : \"value\"", "\"welch\" : {", "\"mannWhitney\" : {",
                "\"relativeChange\" : {", "\"TOO_FEW_SAMPLES\"");
    }

    @Test
    void comparesEveryMetricOfAbJsonWithHolm() throws IOException {
        StringBuilder trials = new StringBuilder();
        java.util.SplittableRandom random = new java.util.SplittableRandom(4);
        for (int i = 0; i < 40; i++) {
            String variant = i % 2 == 0 ? "without" : "with";
            double cpu = (variant.equals("with") ? 16.9 : 18.1) + random.nextGaussian() * 0.5;
            double rps = 50_000 + random.nextGaussian() * 500;
            String status = i == 7 ? "FAILED" : "OK";
            trials.append(i == 0 ? "" : ",").append("{\"variant\":\"").append(variant).append("\",\"ordinal\":")
                    .append(i).append(",\"pid\":1,\"status\":\"").append(status)
                    .append("\",\"metrics\":{\"user_cpu_us_per_req\":")
                    .append(cpu).append(",\"reqs_per_sec\":").append(rps).append(",\"gc_count\":0}}");
        }
        Path file = dir.resolve("ab.json");
        Files.writeString(file, "{\"experiment\":{},\"trials\":[" + trials + "]}");
        Run run = run(file.toString(), file.toString());
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("user_cpu_us_per_req", "reqs_per_sec", "gc_count", "Holm-adjusted")
                .containsPattern("user_cpu_us_per_req .* improved")
                .containsPattern("gc_count .* unchanged")
                .contains("gc_count: every run measured 0 on both sides: no change");
        assertThat(run.err()).contains("1 failed trial(s) left out");
    }

    @Test
    void aMetricReadFromACommandsOutputIsJudgedByTheDirectionItsFormatGave() throws IOException {
        // a JMH throughput (ops/s, higher is better) that rose by about 5 %: improved, as 'ab' and the page judge it
        StringBuilder trials = new StringBuilder();
        java.util.SplittableRandom random = new java.util.SplittableRandom(9);
        for (int i = 0; i < 20; i++) {
            String variant = i % 2 == 0 ? "without" : "with";
            double ops = (variant.equals("with") ? 1050 : 1000) + random.nextGaussian() * 5;
            trials.append(i == 0 ? "" : ",").append("{\"variant\":\"").append(variant).append("\",\"ordinal\":")
                    .append(i).append(",\"pid\":1,\"status\":\"OK\",\"metrics\":{\"Parse:ops/s\":").append(ops)
                    .append("},\"parsedMetrics\":{\"Parse:ops/s\":{\"unit\":\"ops/s\",\"higherIsBetter\":true,")
                    .append("\"values\":[").append(ops).append("]}}}");
        }
        Path file = dir.resolve("jmh.json");
        Files.writeString(file, "{\"experiment\":{},\"trials\":[" + trials + "]}");

        Run run = run(file.toString(), file.toString());

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).containsPattern("Parse:ops/s .* improved").doesNotContain("regressed")
                .contains("(higher is better)");
        assertThat(run(file.toString(), file.toString(), "--format", "json").out())
                .contains("\"better\" : \"higher\"");
    }

    @Test
    void badFilesExitTwoNamingFileAndLine() throws IOException {
        Path good = dir.resolve("good.txt");
        Files.writeString(good, "1\n2\n3\n");
        Path bad = dir.resolve("bad.txt");
        Files.writeString(bad, "1.5\n\n2.5\nabc\n");
        Run run = run(good.toString(), bad.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains(bad + ":4: 'abc' is not a number");

        Files.writeString(bad, "1\nNaN\n");
        assertThat(run(good.toString(), bad.toString()).err()).contains(bad + ":2: 'NaN' is not a number");

        Path missing = dir.resolve("missing.txt");
        Run none = run(good.toString(), missing.toString());
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.err()).contains(missing + ": no such file");
        // - was "no such file", and how to give standard input nowhere; an empty name was "a folder, not a file"
        Run dash = run(good.toString(), "-");
        assertThat(dash.status()).isEqualTo(2);
        assertThat(dash.err()).contains("-: no such file (- is a file name here; standard input is /dev/stdin");
        Run empty = run("", good.toString());
        assertThat(empty.status()).isEqualTo(2);
        assertThat(empty.err()).contains("perflab compare: : an empty file name; give a file");

        Path json = dir.resolve("bad.json");
        Files.writeString(json, "{\"trials\":[{\"variant\":\"with\",\"ordinal\":0,\"pid\":1,\"status\":\"OK\","
                + "\"metrics\":{\"x\":\"fast\"}}]}");
        assertThat(run(good.toString(), json.toString()).err())
                .contains(json + ": not an experiment file of perflab ab --out: trials[0].metrics.x: must be a number");

        // a metric name that would act on the terminal (it was printed as it was, colouring the table)
        Path escape = dir.resolve("escape.json");
        Files.writeString(escape, "{\"trials\":[{\"variant\":\"with\",\"ordinal\":0,\"pid\":1,\"status\":\"OK\","
                + "\"metrics\":{\"cpu\\u001b[31m\":1.5}}]}");
        Run escaped = run(good.toString(), escape.toString());
        assertThat(escaped.status()).isEqualTo(2);
        assertThat(escaped.err()).contains(escape + ": the metric 'cpu\\u001B[31m' of trial 0 holds a control "
                + "character (U+001B) at position 4; metric names are printable text").doesNotContain("\u001b");
        assertThat(escaped.out()).doesNotContain("\u001b");

        Path one = dir.resolve("one.txt");
        Files.writeString(one, "5\n");
        Run single = run(good.toString(), one.toString());
        assertThat(single.status()).isEqualTo(2);
        assertThat(single.err()).contains("not enough 'with' observations: 1 (need ≥ 2)");
    }

    @Test
    void pairedFormatRPrintsRsPairedTTest() throws IOException {
        // Expected: R 4.2.2 print(t.test(with, without, paired = TRUE)) (print/<case>.paired.txt, paired_reference.R)
        for (String name : new String[] {"duet_cpu", "tiny_p"}) {
            Path[] files = caseFiles("/stats/paired_cases.txt", name);
            Run run = run("--paired", "--format", "r", files[0].toString(), files[1].toString());
            assertThat(run.status()).as(name).isZero();
            assertThat(run.out()).as(name).isEqualTo("## value\n" + r(name + ".paired"));
        }
        Path[] files = caseFiles("/stats/paired_cases.txt", "less_0.9");
        Run less = run("--paired", "--format", "r", "--alternative", "less", "--confidence", "0.9",
                files[0].toString(), files[1].toString());
        assertThat(less.out()).isEqualTo("## value\n" + r("less_0.9.paired"));
    }

    @Test
    void pairedAddsThePairedTestToTheTableAndTheJson() throws IOException {
        Path[] files = caseFiles("/stats/paired_cases.txt", "duet_cpu");
        Run table = run("--paired", files[0].toString(), files[1].toString());
        assertThat(table.status()).isZero();
        // Expected: R 4.2.2 t.test(with, without, paired = TRUE): mean difference -0.7598675,
        // CI -1.083998 -0.435737, t = -4.9697, df = 16, p-value = 0.0001391 (print/duet_cpu.paired.txt)
        assertThat(table.out()).contains("paired t-test, value i of WITH against value i of WITHOUT",
                "value: mean difference -0.7599, 95% CI [-1.084, -0.4357], t = -4.97, df = 16, p = 0.0001391");
        Run json = run("--paired", "--format", "json", files[0].toString(), files[1].toString());
        assertThat(json.out()).contains("\"paired\" : {", "\"method\" : \"Paired t-test\"", "\"df\" : 16.0");
        assertThat(run("--format", "json", files[0].toString(), files[1].toString()).out())
                .doesNotContain("\"paired\"");
    }

    @Test
    void pairedRefusesUnequalLengthsNamingTheOption() throws IOException {
        Path with = dir.resolve("with.txt");
        Path without = dir.resolve("without.txt");
        Files.writeString(with, "1\n2\n3\n");
        Files.writeString(without, "1.5\n2.5\n");
        Run run = run("--paired", without.toString(), with.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("perflab compare: --paired: a paired test needs one 'without' value for each"
                + " 'with' value: 'with' has 3 and 'without' 2");
    }

    @Test
    void badOptionExitsTwoNamingIt() throws IOException {
        Path[] files = caseFiles("n2_vs_3");
        Run run = run("--confidence", "2", files[0].toString(), files[1].toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("confidence level");
    }

    /**
     * Three pairs of two windows whose ratios are 1.10, 1.05 and 1.00 in both windows: per pair the mean log ratio,
     * then exp(mean) − 1 = exp((log 1.1 + log 1.05 + 0) / 3) − 1 = 4.92057 % (R: exp(mean(log(c(1.1, 1.05, 1)))) − 1).
     */
    /** Three pairs of two windows of CPU per call, whose ratios are 1.10, 1.05 and 1.00 in both windows. */
    private static java.util.List<io.perflab.runner.experiment.PairResult> threePairs() {
        return java.util.List.of(
                io.perflab.paired.PairedFixtures.pair(0, "cpu_us_per_req", new double[] {50, 60},
                        new double[] {55, 66}),
                io.perflab.paired.PairedFixtures.pair(1, "cpu_us_per_req", new double[] {40, 20},
                        new double[] {42, 21}),
                io.perflab.paired.PairedFixtures.pair(2, "cpu_us_per_req", new double[] {30, 35},
                        new double[] {30, 35}));
    }

    @Test
    void aPairedExperimentFileIsComparedPairByPairWithItsWindowsAveragedWithinEachPair() throws IOException {
        java.util.List<io.perflab.runner.experiment.PairResult> pairs = threePairs();
        Path file = duetFile("duet.json", pairs);

        Run table = run(file.toString(), file.toString());
        Run json = run(file.toString(), file.toString(), "--format", "json");
        Run r = run(file.toString(), file.toString(), "--format", "r");

        assertThat(table.status()).as(table.err()).isZero();
        assertThat(table.out()).contains("Paired analysis: 3 pairs of up to 2 windows", "+4.92%",
                "ignoring the pairing", "a pair costing 14.0 s before its windows and 3.0 s per window");
        assertThat(json.out()).contains("\"changePercent\" : 4.92057", "\"pairs\" : 3", "\"windows\" : 6");
        assertThat(r.out()).contains("## cpu_us_per_req", "One Sample t-test", "data:  r");
    }

    /**
     * Every pair's with is its without + 5 in each window: the difference's paired t-test has no variance (R refuses
     * it: "data are essentially constant"), while the log ratios differ from pair to pair and are judged.
     */
    @Test
    void aConstantShiftIsComparedByItsLogRatiosWithoutTheDifferencesTest() throws IOException {
        double[][] without = {{100, 100}, {120, 120}, {90, 90}, {110, 110}};
        java.util.List<io.perflab.runner.experiment.PairResult> pairs = new java.util.ArrayList<>();
        for (int i = 0; i < without.length; i++) {
            pairs.add(io.perflab.paired.PairedFixtures.pair(i, "cpu_us_per_req", without[i],
                    java.util.Arrays.stream(without[i]).map(v -> v + 5).toArray()));
        }
        Path file = duetFile("shift.json", pairs);

        Run table = run(file.toString(), file.toString());
        Run json = run(file.toString(), file.toString(), "--format", "json");

        assertThat(table.status()).as(table.err()).isZero();
        assertThat(table.out()).contains("cpu_us_per_req").doesNotContain("not analysed");
        assertThat(json.status()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"difference\" : null", "\"pairs\" : 4", "essentially constant");
    }

    @Test
    void aPairedFileWithAWindowNumberOutOfRangeIsAUsageErrorNamingIt() throws IOException {
        java.util.List<io.perflab.runner.experiment.PairResult> pairs = java.util.List.of(
                io.perflab.paired.PairedFixtures.pair(0, "cpu_us_per_req", new double[] {50, 60},
                        new double[] {55, 66}),
                io.perflab.paired.PairedFixtures.pair(1, "cpu_us_per_req", new double[] {40, 20},
                        new double[] {42, 21}));
        Path file = duetFile("windows.json", pairs);
        String written = Files.readString(file);
        assertThat(written).containsPattern("\"window\" ?: ?1");
        // -1 was an ArrayIndexOutOfBoundsException, 2³¹ − 1 a NegativeArraySizeException, 3·10⁸ an OutOfMemoryError;
        // the window is checked where a file's trials are read (PairPosition), for compare and calibrate --from alike
        for (String window : new String[] {"-1", "2147483647", "300000000"}) {
            Path bad = dir.resolve("window" + window + ".json");
            Files.writeString(bad, written.replaceFirst("\"window\" ?: ?1", "\"window\" : " + window));
            Run run = run(bad.toString(), bad.toString());
            assertThat(run.status()).as(window).isEqualTo(2);
            assertThat(run.err()).contains(bad + ": not an experiment file", ".pair: pair 0 has window " + window,
                    "numbered 0 to 999").doesNotContain("Exception", "\tat ", "Cannot construct");
            // calibrate --from reads the same files the same way
            StringWriter err = new StringWriter();
            int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err))
                    .execute("calibrate", "--from", bad.toString(), "--experiments", "1", "--pairs", "2");
            assertThat(status).isEqualTo(2);
            assertThat(err.toString()).contains("--from " + bad + ": ", "has window " + window)
                    .doesNotContain("Exception", "\tat ");
        }
    }

    @Test
    void aPairedFileHoldingAWindowTwiceIsAUsageErrorNamingBothEntries() throws IOException {
        java.util.List<io.perflab.runner.experiment.PairResult> pairs = threePairs();
        String written = Files.readString(duetFile("twice.json", pairs));
        Path bad = dir.resolve("window-twice.json");
        Files.writeString(bad, written.replaceFirst("\"window\" ?: ?1", "\"window\" : 0"));

        // the later window replaced the earlier one, and pair 0 was analysed on one window without a word
        Run run = run(bad.toString(), bad.toString());

        assertThat(run.status()).as(run.out()).isEqualTo(2);
        assertThat(run.err()).contains(bad + ": not an experiment file of perflab ab --out: trials[",
                "] is window 0 of pair 0 of ", ", as trials[", "] is; a paired design's file holds each successful "
                + "window once");
        StringWriter err = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err))
                .execute("calibrate", "--from", bad.toString(), "--experiments", "1", "--pairs", "3");
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("--from " + bad + ": ", "is window 0 of pair 0 of ");
    }

    @Test
    void aPairedDesignsFileAgainstAFileOfFreshTrialsIsRefused() throws IOException {
        java.util.List<io.perflab.runner.experiment.PairResult> pairs = java.util.List.of(
                io.perflab.paired.PairedFixtures.pair(0, "cpu_us_per_req", new double[] {50, 60},
                        new double[] {55, 66}),
                io.perflab.paired.PairedFixtures.pair(1, "cpu_us_per_req", new double[] {40, 20},
                        new double[] {42, 21}));
        Path paired = duetFile("paired.json", pairs);
        StringBuilder trials = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            trials.append(i == 0 ? "" : ",").append(trial(i % 2 == 0 ? "without" : "with", i, "50", 40 + i)
                    .replace("\"x\"", "\"cpu_us_per_req\""));
        }
        Path fresh = file("fresh.json", "{\"trials\":[" + trials + "]}");

        // Welch compared 3 fresh trials with the paired file's 4 windows, as if each were an independent trial
        for (Path[] order : new Path[][] {{fresh, paired}, {paired, fresh}}) {
            Run run = run(order[0].toString(), order[1].toString());

            assertThat(run.status()).as(run.out()).isEqualTo(2);
            assertThat(run.out()).isEmpty();
            assertThat(run.err()).contains("perflab compare: " + paired + " holds a paired design's windows, "
                    + fresh + " fresh trials: the windows of a pair are no independent samples");
        }
    }

    @Test
    void aFileNameThatWouldActOnTheTerminalIsShownEscaped() throws IOException {
        Path good = file("good.txt", "1\n2\n3\n");
        // the names were printed as they are: the escape code cleared the terminal, the override reversed the line
        Path missing = dir.resolve("\u001b[2Jmissing.txt");
        Run run = run(missing.toString(), good.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("\\u001B[2Jmissing.txt: no such file").doesNotContain("\u001b");

        Path bad = file("\u202ebad.txt", "1\nx\n");
        run = run(good.toString(), bad.toString());
        assertThat(run.err()).contains("\\u202Ebad.txt:2: 'x' is not a number").doesNotContain("\u202e");

        StringWriter err = new StringWriter();
        int status = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err))
                .execute("calibrate", "--from", missing.toString(), "--experiments", "1", "--pairs", "2");
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("--from " + dir + "/\\u001B[2Jmissing.txt: no such file")
                .doesNotContain("\u001b");
    }

    /** A file of {@code text} in the test's folder. */
    private Path file(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    /** Asserts that {@code compare file file} exits 2 saying {@code message}, without a Java name or stack trace. */
    private void assertRefused(Path file, String... message) {
        Run run = run(file.toString(), file.toString());
        assertThat(run.status()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains(message).doesNotContain("internal error", "Exception", "java.", "io.perflab",
                "\tat ", "Cannot ");
    }

    @Test
    void aNullInAnExperimentFileIsRefusedNamingTheFileAndTheEntry() throws IOException {
        // each was an internal error (status 70) quoting a NullPointerException
        assertRefused(file("metric.json", "{\"trials\":[{\"variant\":\"without\",\"ordinal\":0,\"pid\":1,"
                + "\"status\":\"OK\",\"metrics\":{\"x\":1.0}},{\"variant\":\"with\",\"ordinal\":1,\"pid\":1,"
                + "\"status\":\"OK\",\"metrics\":{\"x\":null}}]}"), "metric.json: ", "trials[1].metrics.x is null");
        assertRefused(file("trial.json", "{\"trials\":[null]}"), "trial.json: ", "trials[0] is null");
        assertRefused(file("parsed.json", "{\"trials\":[{\"variant\":\"with\",\"ordinal\":0,\"pid\":1,"
                + "\"status\":\"OK\",\"metrics\":{\"x\":1.0},\"parsedMetrics\":{\"x\":null}}]}"),
                "trials[0].parsedMetrics.x is null");
        // a paired design's file: its null was read where the design is told apart, which caught other errors only
        Path duet = duetFile("duet-null.json", java.util.List.of(
                io.perflab.paired.PairedFixtures.pair(0, "cpu_us_per_req", new double[] {50, 60},
                        new double[] {55, 66}),
                io.perflab.paired.PairedFixtures.pair(1, "cpu_us_per_req", new double[] {40, 20},
                        new double[] {42, 21})));
        Files.writeString(duet, Files.readString(duet).replaceFirst("\"trials\" ?: ?\\[", "\"trials\" : [ null,"));
        assertRefused(duet, "duet-null.json: ", "trials[0] is null");
    }

    @Test
    void anExperimentFileThatIsNoneIsRefusedInItsOwnTermsOnce() throws IOException {
        // "not an experiment file of perflab ab --out: not an experiment file of perflab ab --out: it has no trials"
        Path none = file("none.json", "{\"experiment\":{}}");
        assertRefused(none, "none.json: not an experiment file of perflab ab --out: it has no trials");
        assertThat(run(none.toString(), none.toString()).err()).containsOnlyOnce("not an experiment file");
        // "trials[0]: Cannot construct instance of `io.perflab.runner.trial.TrialResult`, problem: variant"
        assertRefused(file("variant.json", "{\"trials\":[{\"ordinal\":0,\"pid\":1,\"status\":\"OK\"}]}"),
                "trials[0].variant: is missing or null");
        assertRefused(file("cut.json", "{\"trials\":["), "cut.json: not an experiment file of perflab ab --out: ",
                "not valid JSON (line 1");
    }

    @Test
    void aValueBeyondTheRangeOfADoubleIsRefusedAsWritten() throws IOException {
        Path good = file("good.txt", "1\n2\n3\n");
        // "'1e400' is not a finite number"; in JSON it was compared as "'with' value 1 is Infinity"
        Run plain = run(good.toString(), file("big.txt", "1\n1e400\n3\n").toString());
        assertThat(plain.status()).isEqualTo(2);
        assertThat(plain.err()).contains("big.txt:2: '1e400' is beyond the range of a double (about ±1.8e308)");
        assertRefused(file("big.json", "{\"trials\":[{\"variant\":\"with\",\"ordinal\":1,\"pid\":1,"
                + "\"status\":\"OK\",\"metrics\":{\"x\":1e400}}]}"), "big.json: ",
                "trials[0].metrics.x is beyond the range of a double (about ±1.8e308)");
    }

    @Test
    void sampleFilesAreUtf8TextWithOrWithoutAByteOrderMarkInAnyLineEnding() throws IOException {
        Path good = file("good.txt", "1\n2\n3\n");
        // a byte order mark was part of the first value: "bom.txt:1: '\uFEFF1' is not a number"
        for (String ending : new String[] {"\n", "\r\n", "\r"}) {
            Path bom = file("bom.txt", "\uFEFF1" + ending + "2" + ending + "4" + ending);
            Run run = run(good.toString(), bom.toString());
            assertThat(run.status()).as(run.err()).isZero();
            assertThat(run.out()).contains("(n=3)").doesNotContain("(n=1)");
        }
        Path bom = file("bom.json", "\uFEFF{\"trials\":[{\"variant\":\"with\",\"ordinal\":0,\"pid\":1,"
                + "\"status\":\"OK\",\"metrics\":{\"x\":1.0}}]}");
        assertThat(run(bom.toString(), bom.toString()).err()).doesNotContain("is not a number");

        // it said "cannot read the file (missing.txt)" and "cannot read the file (Input length = 1)"
        Run missing = run(good.toString(), dir.resolve("missing.txt").toString());
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("missing.txt: no such file");
        Path utf16 = dir.resolve("utf16.txt");
        Files.write(utf16, "\uFEFF1\n2\n".getBytes(StandardCharsets.UTF_16LE)); // as Windows' Notepad saves "Unicode"
        Run binary = run(good.toString(), utf16.toString());
        assertThat(binary.status()).isEqualTo(2);
        assertThat(binary.err()).contains("utf16.txt: not UTF-8 text (byte 0xFF at offset 0");
        Run folder = run(good.toString(), dir.toString());
        assertThat(folder.status()).isEqualTo(2);
        assertThat(folder.err()).contains(dir + ": a folder, not a file");
    }

    @Test
    void whatAFileHoldsIsShownEscapedInMessages() throws IOException {
        Path good = file("good.txt", "1\n2\n3\n");
        // the line was echoed as it was, and turned the terminal red
        Run escape = run(good.toString(), file("escape.txt", "1\n2\u001b[31mRED\n").toString());
        assertThat(escape.status()).isEqualTo(2);
        assertThat(escape.err()).contains("escape.txt:2: '2\\u001B[31mRED' is not a number")
                .doesNotContain("\u001b");
        Run bidi = run(good.toString(), file("bidi.txt", "1\n\u202E2\n").toString());
        assertThat(bidi.err()).contains("bidi.txt:2: '\\u202E2' is not a number").doesNotContain("\u202E");
    }

    @Test
    void numbersOfSampleFilesAreDecimalsAsInUploads() throws IOException {
        Path good = file("good.txt", "1\n2\n3\n");
        // 0x1p3 was read as 8
        for (String number : new String[] {"0x1p3", "1d", "2.5f", "Infinity", "1,5"}) {
            Run run = run(good.toString(), file("odd.txt", "1\n" + number + "\n3\n").toString());
            assertThat(run.status()).as(number).isEqualTo(2);
            assertThat(run.err()).as(number).contains("odd.txt:2: '" + number + "' is not a number");
        }
        assertThat(run(good.toString(), file("fine.txt", " -0.5\n.5\n+4E6\n3.\n").toString()).status()).isZero();
    }

    /** {@code /dev/zero} was read until the memory ran out. */
    @Test
    void aDeviceIsRefusedWithoutReadingIt() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")));
        Path good = file("good.txt", "1\n2\n3\n");
        Run run = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> run("/dev/zero", good.toString()));
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("/dev/zero: a device, not a file");
    }

    @Test
    void aFileOfOtherVariantsThanWithoutAndWithIsRefusedNamingThem() throws IOException {
        // a peers --out file: every stack's trials were pooled on both sides, and compared with themselves
        StringBuilder trials = new StringBuilder();
        String[] stacks = {"perflab", "grpc", "netty"};
        for (int i = 0; i < 6; i++) {
            trials.append(i == 0 ? "" : ",").append("{\"variant\":\"").append(stacks[i % 3])
                    .append("\",\"ordinal\":").append(i).append(",\"pid\":1,\"status\":\"OK\",\"metrics\":{")
                    .append("\"cpu_us_per_req\":").append(20 + i).append("}}");
        }
        Path peers = file("peers.json", "{\"experiment\":{},\"trials\":[" + trials + "]}");
        assertRefused(peers, "peers.json: its trials are of the variants perflab, grpc, netty",
                "perflab peers --out");
    }

    @Test
    void flagsTheFilesWouldNotUseAreRefusedNamingThem() throws IOException {
        Path json = file("ab.json", "{\"trials\":[{\"variant\":\"with\",\"ordinal\":0,\"pid\":1,"
                + "\"status\":\"OK\",\"metrics\":{\"x\":1.0}}]}");
        // both were ignored: an experiment file's metrics have their own direction, a paired design's are pairs
        Run higher = run("--higher-is-better", json.toString(), json.toString());
        assertThat(higher.status()).isEqualTo(2);
        assertThat(higher.err()).contains("--higher-is-better", "ab.json");
        Path duet = duetFile("duet.json", java.util.List.of(
                io.perflab.paired.PairedFixtures.pair(0, "cpu_us_per_req", new double[] {50, 60},
                        new double[] {55, 66}),
                io.perflab.paired.PairedFixtures.pair(1, "cpu_us_per_req", new double[] {40, 20},
                        new double[] {42, 21}),
                io.perflab.paired.PairedFixtures.pair(2, "cpu_us_per_req", new double[] {30, 35},
                        new double[] {30, 35})));
        Run paired = run("--paired", duet.toString(), duet.toString());
        assertThat(paired.status()).isEqualTo(2);
        assertThat(paired.err()).contains("--paired", "duet.json", "pair by pair");
    }

    @Test
    void flagValuesAreRefusedNamingTheFlag() throws IOException {
        Path[] files = caseFiles("n2_vs_3");
        String[][] cases = {
            {"--confidence=1.5", "Invalid value for option '--confidence': ", "between 0 and 1", "'1.5'"},
            {"--alpha=0", "Invalid value for option '--alpha': ", "between 0 and 1"},
            {"--margin=-1", "Invalid value for option '--margin': ", "above 0", "'-1'"},
            {"--alternative=foo", "Invalid value for option '--alternative': ", "two-sided", "less", "greater"},
            // "got Infinity"
            {"--confidence=1e999", "Invalid value for option '--confidence': ", "'1e999' is beyond the range"},
            // both were taken: 0.5 and 0.95
            {"--confidence=0x1p-1", "Invalid value for option '--confidence': ", "'0x1p-1' is not a number"},
            {"--confidence=0.95d", "Invalid value for option '--confidence': ", "'0.95d' is not a number"},
        };
        for (String[] c : cases) {
            Run run = run(c[0], files[0].toString(), files[1].toString());
            assertThat(run.status()).as(c[0]).isEqualTo(2);
            assertThat(run.err()).as(c[0]).contains(java.util.Arrays.copyOfRange(c, 1, c.length));
        }
    }

    @Test
    void nothingComparedIsAnErrorNotAResult() throws IOException {
        // a metric that is NaN in every trial was "not compared", with status 0, in every format
        Path nan = file("nan.json", "{\"trials\":[{\"variant\":\"without\",\"ordinal\":0,\"pid\":1,"
                + "\"status\":\"OK\",\"metrics\":{\"x\":\"NaN\"}},{\"variant\":\"with\",\"ordinal\":1,"
                + "\"pid\":1,\"status\":\"OK\",\"metrics\":{\"x\":\"NaN\"}}]}");
        for (String format : new String[] {"table", "json", "r"}) {
            Run run = run("--format", format, nan.toString(), nan.toString());
            assertThat(run.status()).as(format).isEqualTo(2);
            assertThat(run.err()).as(format).contains("nan.json vs ", "no metric could be compared", "x: ", "NaN");
        }
        // one pair: "not analysed: not enough pairs: 1", status 0
        Path onePair = duetFile("one-pair.json", java.util.List.of(io.perflab.paired.PairedFixtures.pair(0,
                "cpu_us_per_req", new double[] {50, 60}, new double[] {55, 66}),
                io.perflab.paired.PairedFixtures.failedPair(1)));
        for (String format : new String[] {"table", "json", "r"}) {
            Run run = run("--format", format, onePair.toString(), onePair.toString());
            assertThat(run.status()).as(format).isEqualTo(2);
            assertThat(run.err()).as(format).contains("one-pair.json: no metric could be compared pair by pair",
                    "not enough pairs: 1");
        }
        // one metric of two compared: a result, and the table says why the other was not
        Path half = file("half.json", "{\"trials\":[" + trial("without", 0, "\"NaN\"", 10) + ","
                + trial("with", 1, "\"NaN\"", 11) + "," + trial("without", 2, "\"NaN\"", 12) + ","
                + trial("with", 3, "\"NaN\"", 13) + "]}");
        Run run = run(half.toString(), half.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("not compared");
    }

    private static String trial(String variant, int ordinal, String x, double y) {
        return "{\"variant\":\"" + variant + "\",\"ordinal\":" + ordinal + ",\"pid\":1,\"status\":\"OK\","
                + "\"metrics\":{\"x\":" + x + ",\"y\":" + y + "}}";
    }

    /** An {@code ab --out} file of a duet of two windows per pair holding {@code pairs}. */
    private Path duetFile(String name, java.util.List<io.perflab.runner.experiment.PairResult> pairs)
            throws IOException {
        Path file = dir.resolve(name);
        var engine = io.perflab.runner.experiment.EngineVariant.of(io.perflab.rpc.EngineOptions.defaults(),
                io.perflab.runner.rpcbench.Workload.DEFAULTS);
        io.perflab.runner.experiment.ExperimentJson.write(file, io.perflab.runner.experiment.ExperimentPlan.of(engine,
                engine, pairs.size()).withDesign(io.perflab.runner.experiment.ExperimentDesign.DUET, 2),
                pairs.stream().flatMap(p -> p.results().stream()).toList());
        return file;
    }
}
