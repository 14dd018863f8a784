// Plots of an experiment page with ECharts (served from the jar). The results table is their text alternative.
(function () {
  'use strict';
  var COLORS = { without: '#6e7781', 'with': '#0b5cad' };

  function quantile(sorted, p) {
    var h = (sorted.length - 1) * p;
    var lo = Math.floor(h);
    return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)]) - sorted[lo]);
  }

  function box(values) {
    var s = values.slice().sort(function (a, b) { return a - b; });
    return s.length ? [s[0], quantile(s, 0.25), quantile(s, 0.5), quantile(s, 0.75), s[s.length - 1]] : [];
  }

  function axisName(m) {
    return m.metric + (m.unit ? ' (' + m.unit + ')' : '');
  }

  function strip(el, m) {
    var chart = echarts.init(el, null, { renderer: 'svg' });
    var jitter = function (i, k) { return i + ((k * 7919) % 100 - 50) / 250; };
    chart.setOption({
      animation: false,
      title: { text: 'By variant', textStyle: { fontSize: 12 } },
      tooltip: { trigger: 'item' },
      xAxis: { type: 'value', min: -0.6, max: 1.6, interval: 1, name: 'variant', nameLocation: 'middle', nameGap: 25,
        axisLabel: { formatter: function (v) { return v === 0 ? 'without' : v === 1 ? 'with' : ''; } } },
      yAxis: { type: 'value', scale: true, name: axisName(m), nameLocation: 'middle', nameGap: 55 },
      grid: { left: 75, right: 15, top: 30, bottom: 40 },
      series: [
        { type: 'boxplot', name: 'box', data: [[0].concat(box(m.without.map(function (p) { return p[1]; }))),
          [1].concat(box(m['with'].map(function (p) { return p[1]; })))].filter(function (b) { return b.length > 1; }),
          encode: { x: 0, y: [1, 2, 3, 4, 5] }, itemStyle: { color: 'transparent', borderColor: '#999' } },
        { type: 'scatter', name: 'without', color: COLORS.without, symbolSize: 6,
          data: m.without.map(function (p, k) { return [jitter(0, k), p[1]]; }) },
        { type: 'scatter', name: 'with', color: COLORS['with'], symbolSize: 6,
          data: m['with'].map(function (p, k) { return [jitter(1, k), p[1]]; }) }
      ]
    });
    return chart;
  }

  function order(el, m) {
    var chart = echarts.init(el, null, { renderer: 'svg' });
    chart.setOption({
      animation: false,
      title: { text: 'In run order', textStyle: { fontSize: 12 } },
      legend: { top: 0, right: 0 },
      tooltip: { trigger: 'item' },
      xAxis: { type: 'value', name: 'run (plan order)', nameLocation: 'middle', nameGap: 25, minInterval: 1 },
      yAxis: { type: 'value', scale: true, name: axisName(m), nameLocation: 'middle', nameGap: 55 },
      grid: { left: 75, right: 15, top: 30, bottom: 40 },
      series: ['without', 'with'].map(function (v) {
        return { type: 'scatter', name: v, color: COLORS[v], symbolSize: 6, data: m[v] };
      })
    });
    return chart;
  }

  function forest(el, metrics) {
    var rows = metrics.filter(function (m) { return m.percent !== null && m.ciLowPercent !== null; }).reverse();
    if (!rows.length) {
      el.textContent = 'No relative change could be computed yet.';
      return null;
    }
    el.style.height = Math.max(160, 28 * rows.length + 70) + 'px';
    var chart = echarts.init(el, null, { renderer: 'svg' });
    var names = rows.map(function (m) { return m.metric; });
    chart.setOption({
      animation: false,
      title: { text: 'Change with 95 % CI (percent of baseline)', textStyle: { fontSize: 12 } },
      tooltip: { trigger: 'item' },
      grid: { left: 230, right: 20, top: 30, bottom: 40 },
      xAxis: { type: 'value', name: 'Δ % (with vs without)', nameLocation: 'middle', nameGap: 25, scale: true },
      yAxis: { type: 'category', data: names, name: 'metric' },
      series: [
        { type: 'custom', name: '95 % CI',
          renderItem: function (params, api) {
            var lo = api.coord([api.value(1), api.value(0)]);
            var hi = api.coord([api.value(2), api.value(0)]);
            return { type: 'line', shape: { x1: lo[0], y1: lo[1], x2: hi[0], y2: hi[1] },
              style: { stroke: '#444', lineWidth: 2 } };
          },
          encode: { x: [1, 2], y: 0 },
          data: rows.map(function (m, i) { return [i, m.ciLowPercent, m.ciHighPercent]; }) },
        { type: 'scatter', name: 'Δ %', symbolSize: 9, color: COLORS['with'],
          data: rows.map(function (m, i) { return [m.percent, i]; }),
          markLine: { silent: true, symbol: 'none', data: [{ xAxis: 0 }], lineStyle: { color: '#999' } } }
      ]
    });
    return chart;
  }

  function render() {
    var dataElement = document.getElementById('experiment-data');
    if (!dataElement || !window.echarts) {
      return;
    }
    var data = JSON.parse(dataElement.textContent);
    var byMetric = {};
    data.metrics.forEach(function (m) { byMetric[m.metric] = m; });
    var charts = [];
    document.querySelectorAll('.chart.strip').forEach(function (el) {
      charts.push(strip(el, byMetric[el.getAttribute('data-metric')]));
    });
    document.querySelectorAll('.chart.order').forEach(function (el) {
      charts.push(order(el, byMetric[el.getAttribute('data-metric')]));
    });
    var forestElement = document.getElementById('chart-forest');
    if (forestElement) {
      charts.push(forest(forestElement, data.metrics));
    }
    window.addEventListener('resize', function () {
      charts.forEach(function (c) { if (c) { c.resize(); } });
    });
  }

  document.addEventListener('perflab:results-updated', render);
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', render);
  } else {
    render();
  }
})();
