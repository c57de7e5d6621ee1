(function () {
  'use strict';
  function data(id) { return JSON.parse(document.getElementById(id).textContent); }
  var T = data('crapette-table'), S = data('crapette-steps');
  var counter = document.getElementById('counter');
  var caption = document.getElementById('caption');
  var note = document.getElementById('note');
  var layer = {};
  ['header', 'piles', 'marks', 'counts', 'plates'].forEach(function (name) {
    layer[name] = document.getElementById('crapette-' + name);
  });
  function esc(v) {
    return String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  // A template filled with values, as render() fills it.
  function fill(cmd) {
    var t = T.templates[cmd[0]];
    return t[0].replace(/\{(\w+)\}/g, function (m, name) { return esc(cmd[1 + t[1].indexOf(name)]); });
  }
  function num(v) {
    var s = (Math.round(v * 10) / 10).toFixed(1);
    return s.slice(-2) === '.0' ? s.slice(0, -2) : s;
  }
  function fillNamed(t, values) {
    return fill([t].concat(T.templates[t][1].map(function (name) { return values[name]; })));
  }
  function face(code, x, y, pile) {
    var rank = T.ranks[code[0]], suit = T.suits[code[1]];
    return fillNamed(T.face, {card: code, pile: pile, x: num(x), y: num(y), band: T.bands[+code[2]], ink: suit[1],
                              size: rank[1], spacing: rank[2], rank: rank[0], suit: suit[0]});
  }
  // A pile as render() draws it (_draw_pile): P is its fixed markup and place.
  function drawPile(id, text) {
    var P = T.piles[id], codes = text ? text.split(' ') : [], out = [P.before];
    if (P.kind === 'T') {
      var step = codes.length > 1 ? Math.min(T.fan, T.fanRoom / (codes.length - 1)) : 0;
      if (!codes.length) { out.push(P.empty); }
      codes.forEach(function (code, i) { out.push(face(code, P.x + P.fan * i * step, P.y, P.name)); });
    } else {  // the count, then the top card if it lies face up
      var count = +codes[0];
      if (!count) { out.push(P.empty); } else {
        out.push(P.depth[Math.min(count - 1, 2)]);
        out.push(codes.length === 2 ? face(codes[1], P.x, P.y, P.name) : P.back);
      }
    }
    out.push(P.after);
    return {markup: out.join(''), count: P.kind === 'T' ? codes.length : count};
  }
  var piles = [], index = 0, drawn = -1;
  function stateAt(i) {
    var k = i - i % T.keyframe, texts = [];
    for (var j = k; j <= i; j++) {
      var changes = S[j].c;
      for (var id in changes) { texts[+id] = changes[id]; }
    }
    return texts;
  }
  function show(i) {
    index = Math.max(0, Math.min(S.length - 1, i));
    if (index === drawn) { return; }
    drawn = index;
    var step = S[index], texts = stateAt(index), pileMarkup = [], counts = [];
    for (var id = 0; id !== texts.length; id++) {
      var pile = drawPile(id, texts[id]);
      pileMarkup.push(pile.markup);
      counts[id] = pile.count;
    }
    layer.piles.innerHTML = pileMarkup.join('');
    layer.header.innerHTML = step.g.map(fill).join('');
    layer.marks.innerHTML = (step.h || []).map(fill).join('');
    layer.counts.innerHTML = T.counted.map(function (id) {
      var P = T.piles[id];
      return fillNamed(T.badge, {pile: P.name, x: num(P.x), y: num(P.y), count: String(counts[id])});
    }).join('');
    layer.plates.innerHTML = step.p.map(function (key, player) { return T.plates[player][key]; }).join('');
    caption.textContent = step.m ? 'move ' + (index + 1) + ': ' + step.m : step.s;
    note.textContent = step.t || '';
    note.style.display = step.t ? '' : 'none';
    counter.textContent = (index + 1) + ' / ' + S.length;
  }
  document.getElementById('first').onclick = function () { show(0); };
  document.getElementById('prev').onclick = function () { show(index - 1); };
  document.getElementById('next').onclick = function () { show(index + 1); };
  document.getElementById('last').onclick = function () { show(S.length - 1); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(index - 1); }
    else if (e.key === 'ArrowRight') { show(index + 1); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(S.length - 1); }
    else { return; }
    e.preventDefault();
  });
  show(0);
})();
