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
 *   POST /agents/{id}/experiments/{e}/pairs  --&gt;  the same for a pair of a paired design, posted whole
 *   POST /agents/{id}/experiments/{e}/finish --&gt;  200 {experimentId, status}
 *        {outcome: COMPLETED | FAILED | CANCELLED | INTERRUPTED}
 * </pre>
 *
 * <p>The service's own scheduler is the built-in agent: it claims and records through the same code, without HTTP.
 * Paired designs with a stopping rule (targets, a budget) run on built-in agents only, since their sequential
 * looks are stored as the pairs finish; remote agents run the other paired designs, pair by pair.
 */
package io.perflab.agent;
