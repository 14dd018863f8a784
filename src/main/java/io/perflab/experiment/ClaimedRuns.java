package io.perflab.experiment;

import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.system.ConflictException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What becomes of a claimed experiment, whichever agent runs it: the built-in agent (the scheduler) and remote
 * agents (their posts to {@code /api/v1/agents}) go through this one path, so that a trial is stored, counted and
 * told to the event stream the same way. The events are published by the service instance that stores the trial.
 */
final class ClaimedRuns {

    private final ExperimentRepository store;
    private final ExperimentEvents events;
    private final Clock clock;
    private final TransactionTemplate transactions;

    /** @param transactions stores a trial, or a pair with its looks, with the check that its agent holds it */
    ClaimedRuns(ExperimentRepository store, ExperimentEvents events, Clock clock, TransactionTemplate transactions) {
        this.store = store;
        this.transactions = transactions;
        this.events = events;
        this.clock = clock;
    }

    /** Tells subscribers that a claimed experiment started running. */
    void started(long experimentId) {
        events.publish(experimentId, "status", Map.of("experimentId", experimentId,
                "status", ExperimentStatus.RUNNING.name()));
    }

    /** Tells subscribers that a trial started. */
    void trialStarted(long experimentId, int ordinal, String variant) {
        events.publish(experimentId, "run-started", Map.of("experimentId", experimentId, "ordinal", ordinal,
                "variant", variant));
    }

    /**
     * Stores a finished trial of the fresh design, once: a trial posted again (a retry) stores nothing and tells
     * nobody. Returns whether it was stored now.
     *
     * @throws NotHeld if the agent does not hold the experiment (any more): checked in the transaction that stores
     *     the trial, as for a pair, so that an agent declared lost stores nothing once its experiment may run
     *     elsewhere
     */
    boolean record(Long agentId, ExperimentRecord experiment, TrialResult result) {
        return record(agentId, experiment, result, () -> { });
    }

    /**
     * As {@link #record(Long, ExperimentRecord, TrialResult)}, checking {@code allowed} in the transaction that
     * stores the trial, after the check that its agent holds the experiment: what the agent's credentials must still
     * allow (a token revoked while the trial was posted stores nothing). It throws to refuse.
     */
    boolean record(Long agentId, ExperimentRecord experiment, TrialResult result, Runnable allowed) {
        if (!storedNow(() -> Boolean.TRUE.equals(transactions.execute(status -> {
            requireHeld(experiment.id(), agentId);
            allowed.run();
            return store.saveRunOnce(experiment.id(), agentId, result);
        })))) {
            return false;
        }
        List<ExperimentRepository.RunTiming> stored = store.runTimings(experiment.id());
        long count = stored.stream().filter(r -> !"CANCELLED".equals(r.status())).count();
        long failed = stored.stream().filter(r -> !"OK".equals(r.status()) && !"CANCELLED".equals(r.status()))
                .count();
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("experimentId", experiment.id());
        event.put("ordinal", result.ordinal());
        event.put("variant", result.variant());
        event.put("status", result.status().name());
        event.put("completedRuns", count);
        event.put("totalRuns", experiment.totalRuns());
        event.put("failedRuns", failed);
        event.put("etaSeconds", TimeLeft.ofTrials(experiment, stored, (int) count));
        event.put("metrics", result.metrics());
        if (agentId != null) {
            event.put("agentId", agentId);
        }
        if (result.error() != null) {
            event.put("error", result.error());
        }
        events.publish(experiment.id(), "run", event);
        return true;
    }

    /**
     * Stores a finished pair of a paired design whole, once, and takes the looks of the experiment's stopping rule
     * after it ({@code look}) in the same transaction, whichever agent ran it: a pair, its looks and the stop reason
     * they may record are stored together or not at all, so that a crash between them loses no look and no stop,
     * and a retried post, or one that raced its twin, takes no second look. Returns the rule's decision, or empty
     * when the pair was stored before.
     *
     * @throws NotHeld if the agent does not hold the experiment (any more): checked in the same transaction, so that
     *     an agent declared lost stores nothing once its experiment may run elsewhere
     */
    Optional<PairStoppingRule.Decision> recordPair(Long agentId, ExperimentRecord experiment, PairResult pair,
                                                   Supplier<PairStoppingRule.Decision> look) {
        return recordPair(agentId, experiment, pair, () -> { }, look);
    }

    /**
     * As {@link #recordPair(Long, ExperimentRecord, PairResult, Supplier)}, checking {@code allowed} in the same
     * transaction, after the check that the agent holds the experiment, as {@link #record} does.
     */
    Optional<PairStoppingRule.Decision> recordPair(Long agentId, ExperimentRecord experiment, PairResult pair,
                                                   Runnable allowed, Supplier<PairStoppingRule.Decision> look) {
        PairStoppingRule.Decision[] decision = {null};
        boolean stored = storedNow(() -> Boolean.TRUE.equals(transactions.execute(status -> {
            requireHeld(experiment.id(), agentId);
            allowed.run();
            if (!store.savePairOnce(experiment.id(), agentId, pair)) {
                return false;
            }
            decision[0] = look.get();
            return true;
        })));
        if (!stored) {
            return Optional.empty();
        }
        pairStored(agentId, experiment, pair);
        return Optional.of(decision[0]);
    }

    /** Locks experiment {@code id}'s row for the caller's transaction if {@code agentId} holds it; else throws. */
    private void requireHeld(long id, Long agentId) {
        if (!store.holdsLocked(id, agentId)) {
            throw new NotHeld(id, agentId);
        }
    }

    /** A trial or pair refused: its agent does not hold the experiment (any more). Nothing was stored. */
    static final class NotHeld extends ConflictException {

        NotHeld(long experimentId, Long agentId) {
            super("experiment " + experimentId + " is not running on " + (agentId == null ? "this service"
                    : "agent " + agentId) + " (any more: its agent may have been declared lost); nothing was stored");
        }
    }

    /** Tells subscribers of a pair stored now. */
    private void pairStored(Long agentId, ExperimentRecord experiment, PairResult pair) {
        List<ExperimentRepository.RunTiming> pairs = store.pairTimings(experiment.id());
        int storedPairs = pairs.size();
        long failedPairs = pairs.stream().filter(p -> !TrialStatus.OK.name().equals(p.status())).count();
        int perPair = 2 * experiment.windowsPerPair();
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("experimentId", experiment.id());
        event.put("completedRuns", storedPairs * perPair);
        event.put("totalRuns", experiment.totalRuns());
        event.put("failedRuns", failedPairs * perPair);
        event.put("pair", pair.index());
        event.put("status", pair.status().name());
        event.put("completedPairs", storedPairs);
        event.put("pairs", experiment.runsPerVariant());
        event.put("etaSeconds", TimeLeft.ofPairs(experiment, pairs, clock.instant()));
        if (agentId != null) {
            event.put("agentId", agentId);
        }
        if (pair.error() != null) {
            event.put("error", pair.error());
        }
        events.publish(experiment.id(), "pair", event);
        events.publish(experiment.id(), "run", event);
    }

    /** The estimate of the time paired experiment {@code experiment} still needs, from the pairs stored now. */
    Long pairedTimeLeft(ExperimentRecord experiment) {
        return TimeLeft.ofPairs(experiment, store.pairTimings(experiment.id()), clock.instant());
    }

    /**
     * Ends {@code agentId}'s claim of running experiment {@code id} in status {@code end} and tells subscribers;
     * false if that agent does not hold it (any more).
     *
     * @param resumeOnClaim whether the next claim of an agent of the same labels resumes it on its own
     */
    boolean end(long id, Long agentId, ExperimentStatus end, String message, boolean resumeOnClaim) {
        return end(id, agentId, end, message, resumeOnClaim, () -> { });
    }

    /**
     * As {@link #end(long, Long, ExperimentStatus, String, boolean)}, checking {@code allowed} in the transaction
     * that ends the claim, as {@link #record} does: it throws to refuse, and the claim goes on.
     */
    boolean end(long id, Long agentId, ExperimentStatus end, String message, boolean resumeOnClaim,
                Runnable allowed) {
        if (!Boolean.TRUE.equals(transactions.execute(status -> {
            if (!store.endClaim(id, agentId, end, clock.instant(), message, resumeOnClaim)) {
                return false;
            }
            allowed.run();
            return true;
        }))) {
            return false;
        }
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("experimentId", id);
        event.put("status", end.name());
        if (message != null) {
            event.put("message", message);
        }
        events.publish(id, "status", event);
        return true;
    }

    /**
     * Whether {@code save} stored its trial or pair now: false when it was there already, or when the same post,
     * sent twice at once, met the other's unique key (the other post stored it).
     */
    private static boolean storedNow(java.util.function.BooleanSupplier save) {
        try {
            return save.getAsBoolean();
        } catch (DuplicateKeyException raced) {
            return false;
        }
    }
}
