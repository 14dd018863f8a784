/**
 * {@code perflab agent}: a benchmark host that runs a service's experiments, and the messages it exchanges with the
 * service's {@code /api/v1/agents} (JSON over HTTP, bearer token of role AGENT).
 *
 * <pre>
 * agent                                         service (any instance; PostgreSQL coordinates them)
 *   POST /agents {name, labels, environment} --&gt;  201 {agentId, heartbeatSeconds, heartbeatTimeoutSeconds}
 *   POST /agents/{id}/poll?waitSeconds=20    --&gt;  200 Assignment (claimed: FOR UPDATE SKIP LOCKED) | 204 none
 *   POST /agents/{id}/heartbeat  (every n s) --&gt;  200 {cancel}      silent past the timeout: LOST, its experiment
 *                                                                   INTERRUPTED, resumed by the next agent of
 *                                                                   the same labels
 *   POST /agents/{id}/experiments/{e}/trials --&gt;  201 {stored: true} | 200 {stored: false}: that ordinal was
 *        PostedTrial, once per finished trial                       stored before (a retry)
 *   POST /agents/{id}/experiments/{e}/pairs  --&gt;  the same for a pair of a paired design, posted whole:
 *        PostedPair, once per finished pair                         PairAnswer {stored, cancel, stop, stopReason}
 *   POST /agents/{id}/experiments/{e}/finish --&gt;  200 {experimentId, status}
 *        {outcome: COMPLETED | FAILED | CANCELLED | INTERRUPTED}
 *   POST /agents/{id}/leave   (once stopped) --&gt;  200 the agent, LEFT: an experiment it still holds
 *                                                    INTERRUPTED at once, its waiting polls 204, its later
 *                                                    messages 409 (register again); leaving twice is harmless
 * </pre>
 *
 * <p>The service's own scheduler is the built-in agent: it claims and records through the same code, without HTTP.
 * Remote agents run paired designs pair by pair, those with a stopping rule (targets, a budget) too: the service
 * takes the rule's sequential looks as each posted pair is stored, in the pair's transaction, from the pairs and
 * looks stored so far, and answers {@code stop} when the rule stops the experiment; the agent then runs no further
 * pair and finishes COMPLETED. The stored looks are the rule's one state: a retried post takes no second look, and
 * the agent that resumes an interrupted experiment goes on from them.
 */
package io.perflab.agent;
