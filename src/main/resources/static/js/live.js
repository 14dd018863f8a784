// Live progress of running experiments over server-sent events. Pages work without it: they show the state
// at load time; this script only keeps the progress bar, the time left, the last trial's figures and what the
// status allows current.
(function () {
  'use strict';
  var panels = document.querySelectorAll('[data-live-experiment]');
  if (!panels.length || !window.EventSource) {
    return;
  }
  function figures(metrics, headline) {
    return headline.filter(function (k) { return metrics[k] !== undefined; })
      .map(function (k) { return k + ' ' + Number(metrics[k]).toPrecision(4); }).join(' · ');
  }

  function update(panel, data) {
    var bar = panel.querySelector('progress');
    if (bar && data.completedRuns !== undefined) {
      bar.max = data.totalRuns;
      bar.value = data.completedRuns;
      panel.querySelector('.done').textContent = data.completedRuns;
      panel.querySelector('.total').textContent = data.totalRuns;
    }
    if (data.failedRuns !== undefined) {
      failed(panel, data.failedRuns);
    }
    if (data.etaSeconds !== undefined) {
      timeLeft(panel, data.etaSeconds);
    }
    var last = panel.querySelector('.last-trial-figures');
    if (last) {
      // The headline metrics, as the server lists them (MetricKeys.HEADLINE).
      var headline = (panel.getAttribute('data-headline') || '').split(' ');
      // a stored pair (a remote agent posts pairs whole) carries no trial: it is told as the pair, by its index
      // from 0 as the samples, the analysis and perflab ab's progress lines name it, with the pairs stored so far
      var what = data.ordinal === undefined && data.pair !== undefined
        ? 'pair ' + data.pair + (data.completedPairs !== undefined && data.pairs !== undefined
          ? ' (' + data.completedPairs + ' of ' + data.pairs + ' stored)' : '')
        : 'run ' + data.ordinal + ' (' + data.variant + ')';
      // a failed trial measured nothing: its status and error, with no empty list of figures
      var shown = data.metrics ? figures(data.metrics, headline) : '';
      last.textContent = what + ' ' + data.status + (shown ? ': ' + shown : '') +
        (data.error ? ' — ' + data.error.split('\n')[0] : '');
    }
  }

  // The failed runs beside the progress bar, as the page renders them: shown only when there are some.
  function failed(panel, count) {
    var span = panel.querySelector('.failed-count');
    if (!span && count > 0) {
      var text = panel.querySelector('.progress-text');
      if (!text) {
        return;
      }
      span = document.createElement('span');
      span.className = 'failed-count';
      span.appendChild(document.createTextNode(' ('));
      span.appendChild(document.createElement('span'));
      span.appendChild(document.createTextNode(' failed)'));
      text.insertBefore(span, text.querySelector('.eta'));
    }
    if (span) {
      span.querySelector('span').textContent = count;
      span.hidden = count === 0;
    }
  }

  // The estimate of the time left, as the page renders it; null: the service has none, so none is shown.
  function timeLeft(panel, seconds) {
    panel.querySelectorAll('.eta').forEach(function (eta) {
      eta.textContent = seconds === null ? '' : '· about ' + seconds + ' s left';
    });
  }

  // What a finished experiment no longer has: a time left and a cancel button.
  function ended(panel) {
    panel.querySelectorAll('.eta').forEach(function (eta) { eta.textContent = ''; });
    var cancel = '/experiments/' + panel.getAttribute('data-live-experiment') + '/cancel';
    document.querySelectorAll('form[action$="/cancel"]').forEach(function (form) {
      if (form.getAttribute('action').slice(-cancel.length) === cancel) {
        form.remove();
      }
    });
  }

  // A visitor's sign-in link says what signing in lets them do with the experiment as it is now, as the page words
  // it for each status; where it leads (the experiment's page, after sign-in) is the same in every status.
  function signInToAct(status) {
    document.querySelectorAll('a.sign-in-to-act').forEach(function (link) {
      var cancellable = status === 'RUNNING' || status === 'QUEUED';
      var resumable = ['INTERRUPTED', 'CANCELLED', 'FAILED'].indexOf(status) >= 0;
      link.textContent = 'Sign in to ' + (cancellable ? 'cancel or ' : '') + (resumable ? 'resume or ' : '') +
        're-run';
    });
  }

  function swapResults(id) {
    var results = document.getElementById('results');
    if (!results) {
      return;
    }
    fetch('/experiments/' + id + '/results', { headers: { 'Accept': 'text/html' } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, 'text/html');
        var fresh = doc.getElementById('results');
        if (fresh) {
          results.replaceWith(fresh);
          document.dispatchEvent(new CustomEvent('perflab:results-updated'));
        }
      });
  }

  panels.forEach(function (panel) {
    var id = panel.getAttribute('data-live-experiment');
    var source = new EventSource('/api/v1/experiments/' + id + '/events');
    source.addEventListener('run', function (event) {
      update(panel, JSON.parse(event.data));
    });
    source.addEventListener('status', function (event) {
      var data = JSON.parse(event.data);
      var badge = document.querySelector('h1 .status');
      if (badge) {
        badge.textContent = data.status;
        badge.className = 'status status-' + data.status.toLowerCase();
      }
      var root = document.querySelector('[data-experiment-id][data-status]');
      if (root) {
        root.setAttribute('data-status', data.status);
      }
      signInToAct(data.status);
      if (['COMPLETED', 'FAILED', 'CANCELLED', 'INTERRUPTED'].indexOf(data.status) >= 0) {
        source.close();
        panel.classList.remove('live');
        ended(panel);
        swapResults(id);
      }
    });
  });
})();
