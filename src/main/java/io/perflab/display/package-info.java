/**
 * How results are shown to people, shared by the dashboard's pages and the exported reports so that both say the
 * same thing the same way: the display rules for numbers that may be missing ({@link io.perflab.display.Format},
 * over the statistics package's {@link io.perflab.stats.Display}), JSON that is safe inside a script element
 * ({@link io.perflab.display.ScriptJson}), and the charts ({@link io.perflab.display.chart}).
 *
 * <p>It knows nothing of experiments, storage or HTTP: callers hand it numbers and names.
 */
package io.perflab.display;
