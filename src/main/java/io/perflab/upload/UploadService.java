package io.perflab.upload;

import io.perflab.experiment.BaseComparison;
import io.perflab.experiment.ExperimentRecord;
import io.perflab.experiment.ExperimentResults;
import io.perflab.experiment.ExperimentRepository;
import io.perflab.experiment.MetricComparison;
import io.perflab.experiment.MetricDefinition;
import io.perflab.experiment.RecordedExperiment;
import io.perflab.experiment.RunRecord;
import io.perflab.experiment.SourceRevision;
import io.perflab.history.UnitConversion;
import io.perflab.runner.experiment.VariantName;
import io.perflab.system.ConflictException;
import io.perflab.system.InvalidInputException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns uploads into experiments of kind {@code UPLOAD}: parse (format adapters), validate, then store everything
 * in one transaction, so that a failure stores nothing. The comparison comes from {@link ExperimentResults}: of
 * the two sides when both were uploaded, else of this upload against the latest upload of the same benchmark at
 * the base commit, or on the base branch. A metric the base measured in another unit of the same dimension
 * ({@code us/op} and {@code ms/op}, {@code ops/s} and {@code ops/ms}) is compared with the base's figures converted
 * to this upload's unit ({@link UnitConversion}), as the history converts them. The base is recorded with the upload,
 * the comparison's digest kept as what lists show of the upload, and the comparison made again for its page and API
 * ({@link BaseComparison.Source}).
 *
 * <p>Over 300 lines: an upload's steps — parse, validate, store in one transaction, compare with its base — and
 * their refusals read as one.
 */
@Service
public class UploadService implements BaseComparison.Source {

    /** A response, and whether it is a stored one returned for a repeated idempotency key. */
    record Outcome(String json, long experimentId, boolean replayed) {
    }

    private final UploadRepository store;
    private final ExperimentRepository experiments;
    private final ExperimentResults results;
    private final TransactionTemplate transactions;
    private final JsonMapper json;
    private final Clock clock;
    private final UploadFormats formats = new UploadFormats();

    UploadService(UploadRepository store, ExperimentRepository experiments, ExperimentResults results,
            PlatformTransactionManager transactionManager, JsonMapper json, Clock clock) {
        this.store = store;
        this.experiments = experiments;
        this.results = results;
        this.transactions = new TransactionTemplate(transactionManager);
        this.json = json;
        this.clock = clock;
    }

    Outcome upload(UploadRequest request) {
        String requestHash = requestHash(request);
        if (request.idempotencyKey() != null) {
            Optional<Outcome> earlier = replay(request, requestHash);
            if (earlier.isPresent()) {
                return earlier.get();
            }
        }
        ValidUpload upload = validate(parse(request), request);
        try {
            return transactions.execute(status -> store(upload, request, requestHash));
        } catch (DuplicateKeyException e) {
            // the same key was stored by a concurrent request meanwhile: ours rolled back, theirs is the answer
            return replay(request, requestHash).orElseThrow(() -> e);
        }
    }

    private Optional<Outcome> replay(UploadRequest request, String requestHash) {
        return store.storedResponse(request.idempotencyScope(), request.idempotencyKey()).map(stored -> {
            if (!stored.requestHash().equals(requestHash)) {
                throw new ConflictException("The Idempotency-Key '" + request.idempotencyKey() + "' was used for a "
                        + "different upload (experiment " + stored.experimentId() + "); use a new key for new data.");
            }
            return new Outcome(stored.response(), stored.experimentId(), true);
        });
    }

    private ParsedUpload parse(UploadRequest request) {
        String misspelt = Variants.misspeltSide(request.variant());
        if (misspelt != null) {
            throw InvalidInputException.ofSentence("variant", "The variant '" + request.variant().strip()
                    + "' looks like '" + misspelt + "' misspelt; a side is with, without (or baseline), and other "
                    + "text labels the with side.");
        }
        String side = Variants.side(request.variant());
        String label = Variants.label(request.variant());
        try {
            if (request.contents().size() == 1) {
                return formats.parse(request.contents().get(0), request.format(), side, label);
            }
            List<ParsedUpload> sides = formats.parseSides(request.contents().get(0), request.contents().get(1),
                    request.format());
            ParsedUpload without = sides.get(0);
            ParsedUpload with = sides.get(1);
            if (without.variants().size() != 1 || with.variants().size() != 1) {
                throw new InvalidUploadException(without.variants().size() != 1 ? ParsedUpload.WITHOUT
                        : ParsedUpload.WITH, "With two files, each must hold one side; this content already holds "
                        + "both 'without' and 'with'. Upload it as one file.");
            }
            return ParsedUpload.pair(without, with);
        } catch (UploadContentException e) {
            throw refused(request, e.field(), e.getMessage());
        } catch (JsonContent.MalformedJsonException e) {
            throw refused(request, e.field(), "The request body is not valid JSON: " + e.getMessage());
        }
    }

    private ValidUpload validate(ParsedUpload parsed, UploadRequest request) {
        try {
            return UploadValidator.validate(parsed, request.benchmark(), request.name(), request.git(),
                    // a two-file upload's sides are its files, whatever ?variant= says
                    new UploadValidator.Source(request.parts(), request.parts().size() == 2 ? null
                            : Variants.label(request.variant())),
                    experiments.metricDefinitions(-1), json);
        } catch (InvalidUploadException e) {
            throw InvalidInputException.ofSentence(e.field(), e.getMessage());
        }
    }

    /**
     * A refusal of the content of {@code request} at {@code field}: in the one file 'file' of a multipart body, the
     * field as in a request body, or that file when nothing finer is known; a two-file upload's fields name their
     * file already ({@link UploadFormats#inFile}).
     */
    private static InvalidInputException refused(UploadRequest request, String field, String message) {
        return InvalidInputException.ofSentence(request.parts().size() == 1
                ? UploadFields.inPart(request.parts().get(0), field) : field, message);
    }

    private Outcome store(ValidUpload upload, UploadRequest request, String requestHash) {
        Instant now = clock.instant();
        List<RecordedExperiment.Run> runs = new ArrayList<>();
        Map<String, Integer> sampleCounts = new LinkedHashMap<>();
        Map<VariantName, String> labels = new EnumMap<>(VariantName.class);
        Map<VariantName, Map<String, String>> configurations = new EnumMap<>(VariantName.class);
        for (VariantName side : VariantName.values()) {
            VariantSamples variant = upload.parsed().variants().get(side.label());
            if (variant == null) {
                continue;
            }
            if (variant.label() != null) {
                labels.put(side, variant.label());
            }
            if (!variant.configuration().isEmpty()) {
                configurations.put(side, variant.configuration());
            }
            sampleCounts.put(side.label(), variant.sampleCount());
            for (int i = 0; i < ValidUpload.runCount(variant); i++) {
                Map<String, Double> values = new LinkedHashMap<>();
                for (Map.Entry<String, MetricSamples> metric : variant.metrics().entrySet()) {
                    if (i < metric.getValue().values().size()) {
                        values.put(metric.getKey(), metric.getValue().values().get(i));
                    }
                }
                runs.add(new RecordedExperiment.Run(side, runs.size(), values));
            }
        }
        GitInfo git = upload.git();
        ExperimentRepository.Recorded stored = experiments.insert(new RecordedExperiment(upload.name(),
                upload.benchmark(), request.principal(), request.principalToken(), now,
                new SourceRevision(git.repository(), git.branch(), git.commit(), git.baseCommit(), git.pullRequest(),
                        git.commitTime()),
                upload.parsed().machine(), upload.parsed().tags(), labels, upload.metrics(), runs,
                upload.parsed().warnings(), configurations));
        // Compared now, from the runs in hand, and kept: the experiment's first view need not read every sample back.
        ExperimentRecord record = experiments.find(stored.id()).orElseThrow();
        List<MetricComparison> own = results.compare(record, stored.runs());
        UploadResponse response = compare(record, upload, stored.runs(), own, sampleCounts, request.baseUrl());
        String body = json.writeValueAsString(response);
        if (request.idempotencyKey() != null) {
            store.storeResponse(request.idempotencyScope(), request.idempotencyKey(), requestHash, stored.id(),
                    body, now);
        }
        return new Outcome(body, stored.id(), false);
    }

    private UploadResponse compare(ExperimentRecord record, ValidUpload upload, List<RunRecord> runs,
            List<MetricComparison> own, Map<String, Integer> sampleCounts, String baseUrl) {
        long id = record.id();
        String url = baseUrl + "/experiments/" + id;
        if (upload.parsed().bothVariants()) {
            return new UploadResponse(id, url, upload.benchmark(), sampleCounts, UploadResponse.VARIANTS, null,
                    null, own, Map.of(), List.of());
        }
        GitInfo git = upload.git();
        Optional<UploadRepository.BaseUpload> base;
        String where;
        if (git.baseCommit() != null) {
            base = store.latestAtCommit(upload.benchmark(), git.baseCommit(), id);
            where = "at base commit " + git.baseCommit();
        } else if (git.branch() != null || git.commit() != null || git.repository() != null) {
            List<String> branches = git.defaultBranch() != null ? List.of(git.defaultBranch())
                    : List.of("main", "master");
            base = store.latestOnBranch(upload.benchmark(), branches, git.repository(), git.commitTime(), id);
            where = "on the base branch " + String.join("/", branches);
        } else {
            return new UploadResponse(id, url, upload.benchmark(), sampleCounts, UploadResponse.NONE, null, null,
                    List.of(), Map.of(), List.of("One side was uploaded without git information, so there is nothing "
                            + "to compare it with; upload both 'with' and 'without', or give "
                            + "git.branch/commit/baseCommit."));
        }
        if (base.isEmpty()) {
            return new UploadResponse(id, url, upload.benchmark(), sampleCounts, UploadResponse.NONE, null, null,
                    List.of(), Map.of(), List.of("No earlier upload of '" + upload.benchmark() + "' " + where
                            + " to compare with."));
        }
        experiments.recordBase(id, base.get().experimentId());
        BaseComparison comparison = compareWithBase(id, upload.metrics(), runs, base.get().experimentId(),
                base.get().commit());
        results.comparedWithBase(record, comparison);
        return new UploadResponse(id, url, upload.benchmark(), sampleCounts, UploadResponse.BASE,
                comparison.baseExperimentId(), comparison.baseCommit(), comparison.comparison(),
                comparison.convertedFrom(), comparison.notes());
    }

    /**
     * The comparison of stored upload {@code experimentId} with the base it was compared with when it came in, made
     * again from the stored runs of both: what its answer and its CI gate judged.
     */
    @Override
    public Optional<BaseComparison> of(long experimentId) {
        return experiments.base(experimentId).map(base -> compareWithBase(experimentId,
                experiments.metricDefinitions(experimentId), experiments.runs(experimentId), base.experimentId(),
                base.commit()));
    }

    /** {@code runs}, this upload's one side, as {@code with} against the base's runs as {@code without}. */
    private BaseComparison compareWithBase(long id, Map<String, MetricDefinition> metrics, List<RunRecord> runs,
                                           long baseId, String baseCommit) {
        List<RunRecord> combined = new ArrayList<>();
        runs.forEach(r -> combined.add(relabel(r, ParsedUpload.WITH, Set.of(), Map.of())));
        List<RunRecord> baseRuns = experiments.runs(baseId);
        boolean baseHasWith = baseRuns.stream().anyMatch(r -> r.variant().equals(ParsedUpload.WITH));
        String baseSide = baseHasWith ? ParsedUpload.WITH : ParsedUpload.WITHOUT;
        List<String> notes = new ArrayList<>();
        Map<String, UnitConversion> converted = new TreeMap<>();
        Set<String> unlike = unlike(metrics, experiments.metricDefinitions(baseId), baseId, converted, notes);
        baseRuns.stream().filter(r -> r.variant().equals(baseSide))
                .forEach(r -> combined.add(relabel(r, ParsedUpload.WITHOUT, unlike, converted)));
        List<MetricComparison> comparison = results.compute(id, combined);
        Map<String, String> convertedFrom = new TreeMap<>();
        converted.forEach((key, conversion) -> convertedFrom.put(key, conversion.from()));
        return new BaseComparison(baseId, baseCommit, comparison, convertedFrom, notes);
    }

    /**
     * The metrics of this upload whose unit or direction differ from the base upload's: their values are not alike
     * (a benchmark run with another time unit since), so they are left out of the comparison, each with a note.
     * One of the same direction in another unit of the same dimension is not left out but put in {@code converted}
     * with the conversion of the base's figures to this upload's unit, also with a note.
     */
    private static Set<String> unlike(Map<String, MetricDefinition> mine, Map<String, MetricDefinition> base,
                                      long baseId, Map<String, UnitConversion> converted, List<String> notes) {
        Set<String> unlike = new TreeSet<>();
        for (MetricDefinition m : mine.values()) {
            MetricDefinition b = base.get(m.key());
            if (b == null || (b.unit().equals(m.unit()) && b.higherIsBetter() == m.higherIsBetter())) {
                continue;
            }
            Optional<UnitConversion> toMine = b.higherIsBetter() == m.higherIsBetter()
                    ? UnitConversion.between(b.unit(), m.unit()) : Optional.empty();
            if (toMine.isPresent()) {
                converted.put(m.key(), toMine.get());
                notes.add("Metric '" + m.key() + "' is in '" + m.unit() + "' here and in '" + b.unit()
                        + "' in experiment " + baseId + ", the base: its figures there are converted from '"
                        + b.unit() + "' to '" + m.unit() + "' to be compared.");
            } else {
                unlike.add(m.key());
                notes.add("Metric '" + m.key() + "' is " + say(m) + " here and " + say(b) + " in experiment "
                        + baseId + ", the base: not compared.");
            }
        }
        return unlike;
    }

    private static String say(MetricDefinition d) {
        return "in '" + d.unit() + "', " + (d.higherIsBetter() ? "higher" : "lower") + " is better,";
    }

    /** {@code run} as {@code variant}, without the metrics {@code leftOut}, those {@code converted} converted. */
    private static RunRecord relabel(RunRecord run, String variant, Set<String> leftOut,
            Map<String, UnitConversion> converted) {
        Map<String, Double> metrics = run.metrics();
        if (!leftOut.isEmpty() || !converted.isEmpty()) {
            Map<String, Double> kept = new LinkedHashMap<>(metrics);
            kept.keySet().removeAll(leftOut);
            converted.forEach((key, conversion) -> kept.computeIfPresent(key, (k, value) -> conversion.apply(value)));
            metrics = kept;
        }
        return new RunRecord(run.id(), variant, run.ordinal(), run.status(), run.startedAt(), run.finishedAt(),
                run.pid(), run.environment(), run.error(), metrics);
    }

    /** SHA-256 over everything that defines the upload, to tell a true repeat from a reused key. */
    private static String requestHash(UploadRequest request) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            GitInfo g = request.git();
            for (Object part : new Object[] {request.format(), request.benchmark(), request.name(), request.variant(),
                    g.repository(), g.branch(), g.commit(), g.baseCommit(), g.pullRequest(), g.commitTime(),
                    g.defaultBranch()}) {
                digest.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            for (String content : request.contents()) {
                digest.update(content.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
