// A benchmark's metric over commits: means with confidence intervals, change points marked, each point a link
// to its experiment. The table on the page carries the same values for readers without JavaScript.
(function () {
  'use strict';
  function render() {
    var el = document.getElementById('chart-history');
    var dataElement = document.getElementById('history-data');
    if (!el || !dataElement || !window.echarts) {
      return;
    }
    var data = JSON.parse(dataElement.textContent);
    var chart = echarts.init(el, null, { renderer: 'svg' });
    var axisName = data.metric + (data.unit ? ' (' + data.unit + ')' : '');
    chart.setOption({
      animation: false,
      tooltip: { trigger: 'item', formatter: function (p) {
        // a change point's dataIndex counts the change points, not the uploads: its upload is the line's xAxis
        var changePoint = p.componentType === 'markLine';
        var d = data.points[changePoint ? p.data.xAxis : p.dataIndex];
        if (changePoint) {
          return d ? 'change point at ' + echarts.format.encodeHTML(d.commit || '#' + d.index) : '';
        }
        // the commit is the uploader's text: escaped, since the tooltip is HTML
        return d ? echarts.format.encodeHTML(d.commit || '#' + d.index) + '<br>'
          + Number(d.mean).toPrecision(5) + ' (n=' + d.n + ')'
          + (d.convertedFrom ? '<br>converted from ' + echarts.format.encodeHTML(d.convertedFrom) : '') : '';
      } },
      grid: { left: 80, right: 20, top: 20, bottom: 60 },
      xAxis: { type: 'category', name: 'commit', nameLocation: 'middle', nameGap: 40,
        data: data.points.map(function (p) { return p.commit ? p.commit.substring(0, 8) : '#' + p.index; }) },
      yAxis: { type: 'value', scale: true, name: axisName, nameLocation: 'middle', nameGap: 60 },
      series: [
        { type: 'custom', name: '95 % CI', renderItem: function (params, api) {
            if (isNaN(api.value(1))) { return null; }
            var lo = api.coord([api.value(0), api.value(1)]);
            var hi = api.coord([api.value(0), api.value(2)]);
            return { type: 'line', shape: { x1: lo[0], y1: lo[1], x2: hi[0], y2: hi[1] },
              style: { stroke: '#888', lineWidth: 1.5 } };
          },
          encode: { x: 0, y: [1, 2] },
          data: data.points.map(function (p, i) { return [i, p.ciLow === null ? NaN : p.ciLow, p.ciHigh === null ? NaN : p.ciHigh]; }) },
        { type: 'line', name: 'mean', symbolSize: 8, color: '#0b5cad',
          data: data.points.map(function (p) { return p.mean; }),
          markLine: { symbol: 'none', label: { formatter: 'change point' }, lineStyle: { color: '#cf222e', type: 'dashed' },
            data: data.changePoints.map(function (i) { return { xAxis: i }; }) } }
      ]
    });
    chart.on('click', function (p) {
      var d = data.points[p.dataIndex];
      if (d && p.seriesName === 'mean') {
        window.location.href = '/experiments/' + d.experimentId;
      }
    });
    window.addEventListener('resize', function () { chart.resize(); });
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', render);
  } else {
    render();
  }
})();
