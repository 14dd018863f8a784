// New-experiment form: the smallest change of CPU per request that an experiment of the design and size entered
// would detect, from the last comparable experiment of that design (the server computes each design's figures for
// 2 … 200 runs or pairs, as its test sees them; beyond that they scale as 1/√n). The server shows the figures for
// the form as first drawn without this script. They were chosen for the preset and windows per pair the form was
// drawn with, so another preset, or a paired design's other windows per pair, hides them rather than quote them.
(function () {
  'use strict';
  var data = document.getElementById('mde-hints');
  var hint = document.getElementById('mde-hint');
  var none = document.getElementById('mde-none');
  var other = document.getElementById('mde-other-settings');
  var design = document.getElementById('design');
  var runs = document.getElementById('runsPerVariant');
  var pairs = document.getElementById('pairs');
  var windows = document.getElementById('windowsPerPair');
  var presets = document.querySelectorAll('input[name=preset]');
  if (!data || !hint || !none || !other || !design || !runs || !pairs || !windows) {
    return;
  }
  var hints = JSON.parse(data.textContent || '{}');
  var hintsPreset = data.getAttribute('data-preset') || '';
  var hintsWindows = data.getAttribute('data-windows-per-pair') || '';

  function presetChosen() {
    var checked = document.querySelector('input[name=preset]:checked');
    return checked ? checked.value : '';
  }

  // Whether the form now asks for other settings than the hints (or their absence) were found for.
  function settingsChanged(h) {
    if (presetChosen() !== hintsPreset) {
      return true;
    }
    if (design.value === 'fresh') {
      return false;
    }
    var wanted = hintsWindows !== '' ? hintsWindows : (h ? String(h.windowsPerPair) : '');
    return wanted !== '' && windows.value.trim() !== wanted;
  }

  function percent(value) {
    return '±' + value.toFixed(2) + '%';
  }

  function at(h, n) {
    if (!(n >= 2)) {
      return null;
    }
    var table = h.bySize;
    return n - 2 < table.length ? table[n - 2] : table[table.length - 1] * Math.sqrt((table.length + 1) / n);
  }

  function update() {
    var h = hints[design.value];
    var changed = settingsChanged(h);
    hint.hidden = !h || changed;
    none.hidden = !!h || changed;
    other.hidden = !changed;
    if (!h || changed) {
      return;
    }
    var fresh = h.design === 'fresh';
    hint.querySelector('.mde-design').textContent = h.design;
    var link = hint.querySelector('.mde-link');
    link.textContent = '#' + h.experimentId;
    link.setAttribute('href', link.getAttribute('href').replace(/\d+$/, String(h.experimentId)));
    hint.querySelector('.mde-size').textContent = h.size
      + (fresh ? ' runs per variant' : ' pairs of ' + h.windowsPerPair + ' windows');
    hint.querySelector('.mde-base').textContent = percent(h.mdePercent);
    // blank runs are the fresh design's default, blank pairs the default experiment's most
    var size = fresh ? (runs.value.trim() || runs.getAttribute('data-default') || '')
      : (pairs.value.trim() || pairs.getAttribute('data-default') || '');
    var estimate = at(h, Number(size));
    hint.querySelector('.mde-estimate').textContent = estimate === null ? 'that' : percent(estimate);
  }

  [design, runs, pairs, windows].concat(Array.prototype.slice.call(presets)).forEach(function (field) {
    field.addEventListener('input', update);
    field.addEventListener('change', update);
  });
  update();
})();

// New-experiment form: the plan's fields of the design not chosen are greyed out, with a note in their group's
// legend. Without this script the legends alone say which design each group of fields belongs to.
(function () {
  'use strict';
  var design = document.getElementById('design');
  var groups = document.querySelectorAll('fieldset.design-fields');
  if (!design || groups.length === 0) {
    return;
  }

  function update() {
    Array.prototype.forEach.call(groups, function (group) {
      var applies = (group.getAttribute('data-designs') || '').split(' ').indexOf(design.value) >= 0;
      group.classList.toggle('not-applicable', !applies);
      var note = group.querySelector('legend .design-note');
      if (!note) {
        note = document.createElement('span');
        note.className = 'design-note';
        group.querySelector('legend').appendChild(note);
      }
      note.textContent = applies ? '' : ' (not used by the ' + design.value + ' design)';
    });
  }

  design.addEventListener('change', update);
  update();
})();
