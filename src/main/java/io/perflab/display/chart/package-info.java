/**
 * The experiment page's and the exported report's charts, drawn on the server as inline SVG by one code path
 * (see {@link io.perflab.experiment.ResultCharts} for why): {@link io.perflab.display.chart.BoxPlot} (samples per
 * variant over a Tukey box plot), {@link io.perflab.display.chart.RunOrderPlot} (samples in plan order) and
 * {@link io.perflab.display.chart.ForestPlot} (every metric's change on a log-ratio axis), over a small
 * {@code Svg} writer, one {@code Palette} of colours and marks, and {@code Frame}/{@code Scale} for the axes.
 *
 * <p>Every chart has a title and a description as its text alternative, escapes every text it draws (metric
 * names are user input), draws at most {@link io.perflab.display.chart.BoxPlot#MAX_POINTS} samples per variant,
 * and is the same for the same input.
 */
package io.perflab.display.chart;
