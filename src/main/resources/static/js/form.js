// New-experiment form: scales the minimum detectable effect of the last comparable experiment to the runs
// entered (MDE ∝ 1/√n). The server shows the base figure without this script.
(function () {
  'use strict';
  var runs = document.getElementById('runsPerVariant');
  var estimate = document.querySelector('#mde-hint .mde-estimate');
  if (!runs || !estimate || !runs.dataset.mdePercent) {
    return;
  }
  var base = Number(runs.dataset.mdePercent);
  var baseRuns = Number(runs.dataset.mdeRuns);
  function update() {
    var n = Number(runs.value);
    estimate.textContent = n >= 2 ? '±' + (base * Math.sqrt(baseRuns / n)).toFixed(2) + '%' : 'that';
  }
  runs.addEventListener('input', update);
  update();
})();
