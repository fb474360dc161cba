// Mboa dashboard: copy buttons, confirmations, and the chart's tap-to-read caption.
'use strict';

document.addEventListener('click', function (event) {
  var button = event.target.closest('[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  var text = source.textContent.trim();
  var label = button.textContent;
  var done = function () {
    button.textContent = button.getAttribute('data-copied');
    button.classList.add('is-done');
    setTimeout(function () {
      button.textContent = label;
      button.classList.remove('is-done');
    }, 2000);
  };
  var select = function () {
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    try {
      if (document.execCommand('copy')) done();
    } catch (e) {
      /* the text stays selected */
    }
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, select);
  else select();
});

document.addEventListener('submit', function (event) {
  var message = event.target.getAttribute('data-confirm');
  if (message && !window.confirm(message)) event.preventDefault();
});

document.querySelectorAll('svg.chart').forEach(function (svg) {
  var output = document.getElementById(svg.getAttribute('data-output'));
  var show = function (event) {
    var day = event.target.closest('g.day');
    if (!day || !output) return;
    svg.querySelectorAll('g.day.is-active').forEach(function (g) {
      g.classList.remove('is-active');
    });
    day.classList.add('is-active');
    output.textContent = day.getAttribute('data-label');
  };
  svg.addEventListener('pointerover', show);
  svg.addEventListener('click', show);
});
