// gridgym replay viewer: reads the page's data (package viewer, Data) and
// plays the game on a canvas. No network, no libraries.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("replay-data").textContent);
  if (D.version !== 1) {
    throw new Error("replay data version " + D.version + ", this page reads version 1");
  }
  var SEAT = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324"];
  var DARK = ["#8c0f2e", "#1f6b29", "#22367f", "#9a4e14", "#56106b", "#17818f", "#8f1789", "#5a3a14"];
  var ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  var CODE = new Int8Array(128).fill(-1);
  for (var i = 0; i < 64; i++) CODE[ALPHA.charCodeAt(i)] = i;

  // decode reads the base-64 varints of viewer.Encoder.
  function decode(s) {
    var out = new Int32Array(s.length), n = 0, v = 0, shift = 0;
    for (var i = 0; i < s.length; i++) {
      var x = s.charCodeAt(i), c = x < 128 ? CODE[x] : -1;
      if (c < 0) throw new Error("bad character in replay data at " + i);
      v += (c & 31) * Math.pow(2, shift);
      shift += 5;
      if ((c & 32) === 0) { out[n++] = v; v = 0; shift = 0; }
    }
    return out.subarray(0, n);
  }

  var rows = D.rows, cols = D.cols, cells = rows * cols, steps = D.steps, seats = D.seats;
  var views = D.views; // [terrain, fill, piece, shape, num, glyph]
  var board0 = decode(D.board0);
  if (board0.length !== cells) throw new Error("start board has " + board0.length + " cells, want " + cells);
  // Diffs: where each step's changes start in the decoded stream.
  var diff = decode(D.diffs);
  var diffAt = new Int32Array(steps + 2);
  var p = 0;
  for (var n = 1; n <= steps; n++) {
    diffAt[n] = p;
    p += 1 + 2 * diff[p];
  }
  diffAt[steps + 1] = p;
  if (p !== diff.length) throw new Error("replay data: diffs of " + p + " values, have " + diff.length);
  function applyStep(board, n) { // the changes of step n (1..steps)
    var q = diffAt[n], k = diff[q++], idx = -1;
    for (var j = 0; j < k; j++) {
      idx += diff[q++] + 1;
      board[idx] = diff[q++];
    }
  }
  // Keyframes every KF steps make any step a copy and at most KF-1 steps away.
  var KF = 64, keys = [], b = Uint16Array.from(board0);
  keys.push(b.slice());
  for (var n = 1; n <= steps; n++) {
    applyStep(b, n);
    if (n % KF === 0) keys.push(b.slice());
  }
  var moves = decode(D.moves);
  // Scores: per seat, the value at every step.
  var scoreAt = [];
  for (var s = 0; s < seats; s++) {
    var ch = decode(D.scores[s]), arr = new Float64Array(steps + 1), st = 0, val = NaN;
    for (var j = 0; j < ch.length; j += 2) {
      var next = st + ch[j];
      for (var t = st; t < next; t++) arr[t] = val;
      st = next;
      var sv = D.scoreValues[ch[j + 1]];
      val = sv === null ? NaN : sv;
    }
    for (var t = st; t <= steps; t++) arr[t] = val;
    scoreAt.push(arr);
  }

  // The networks' views (--with-policy): per seat, where each step's list
  // starts in its decoded stream, and its values.
  var policies = (D.policies || []).map(function (p) {
    var top = decode(p.top), at = new Int32Array(steps + 1), q = 0;
    for (var n = 1; n <= steps; n++) { at[n] = q; q += 1 + 3 * top[q]; }
    if (q !== top.length) throw new Error("replay data: policy of seat " + p.seat + " has " + top.length + " values, want " + q);
    var vals = decode(p.values);
    if (vals.length !== steps) throw new Error("replay data: " + vals.length + " values for seat " + p.seat + ", want " + steps);
    return { seat: p.seat, bot: p.bot, heads: p.heads, top: top, at: at, vals: vals, lo: p.valueLo, hi: p.valueHi };
  });

  var $ = function (id) { return document.getElementById(id); };
  var canvas = $("board"), ctx = canvas.getContext("2d");
  var px = Math.max(8, Math.min(64, Math.floor(640 / Math.max(rows, cols))));
  canvas.width = cols * px; canvas.height = rows * px;
  var slider = $("slider"), playBtn = $("play"), speedSel = $("speed"), dump = $("board-dump");
  slider.max = String(steps);
  $("title").textContent = D.title + " — game " + D.index;
  $("meta").textContent = D.params + " · seed " + D.seed + " · " + steps + " steps · " + D.replay;

  function fmt(v) {
    if (v !== v) return "–";
    return Math.abs(v - Math.round(v)) < 1e-9 ? String(Math.round(v)) : v.toFixed(2);
  }
  function swatch(s) { return '<span class="swatch" style="background:' + SEAT[s % 8] + '"></span>'; }
  function esc(t) { return String(t).replace(/[&<>"]/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); }

  // The seats table (moves and scores at the shown step) and the ranking.
  var seatRows = [];
  (function () {
    var tb = $("seats").tBodies[0];
    for (var s = 0; s < seats; s++) {
      var tr = tb.insertRow();
      tr.innerHTML = "<td>" + swatch(s) + s + "</td><td>" + esc(D.bots[s]) + '</td><td class="mv"></td><td class="num sc"></td>';
      seatRows.push(tr);
    }
    $("scorehead").textContent = D.scoreName || "score";
    var rb = $("ranking").tBodies[0];
    D.ranking.forEach(function (r) {
      var tr = rb.insertRow();
      tr.innerHTML = '<td class="num">' + r.place + "</td><td>" + swatch(r.seat) + r.seat + "</td><td>" + esc(r.bot) +
        '</td><td class="num">' + (r.score === null ? "–" : fmt(r.score)) + '</td><td class="num">' + fmt(r.points) +
        '</td><td class="num">' + fmt(r.win) + '</td><td class="num">' + r.errors + "</td>";
    });
  })();

  // The score chart: lines drawn once, the step cursor on top.
  var chart = $("chart"), cctx = chart.getContext("2d"), chartBase = document.createElement("canvas");
  chartBase.width = chart.width; chartBase.height = chart.height;
  (function () {
    var lo = Infinity, hi = -Infinity;
    scoreAt.forEach(function (a) { for (var t = 0; t <= steps; t++) if (a[t] === a[t]) { lo = Math.min(lo, a[t]); hi = Math.max(hi, a[t]); } });
    if (lo === Infinity) { lo = 0; hi = 1; }
    if (hi === lo) hi = lo + 1;
    var g = chartBase.getContext("2d"), W = chartBase.width, H = chartBase.height, m = 4;
    g.fillStyle = "#666"; g.font = "10px sans-serif";
    g.fillText(fmt(hi), 2, 10); g.fillText(fmt(lo), 2, H - 2);
    var stride = Math.max(1, Math.floor(steps / W));
    scoreAt.forEach(function (a, s) {
      g.strokeStyle = SEAT[s % 8]; g.lineWidth = 1.5; g.beginPath();
      var pen = false;
      for (var t = 0; t <= steps; t += stride) {
        var v = a[t];
        if (v !== v) { pen = false; continue; }
        var x = m + (W - 2 * m) * (steps ? t / steps : 0), y = H - m - (H - 2 * m) * (v - lo) / (hi - lo);
        if (pen) g.lineTo(x, y); else g.moveTo(x, y);
        pen = true;
      }
      g.stroke();
    });
  })();

  var LAND0 = [232, 217, 168], LAND1 = [110, 84, 44];
  function landColor(h, low) {
    var f = Math.max(0, Math.min(1, h / 8)), c = [0, 1, 2].map(function (i) { return Math.round(LAND0[i] + (LAND1[i] - LAND0[i]) * f); });
    if (low) c = [Math.round(c[0] * 0.55 + 90 * 0.45), Math.round(c[1] * 0.55 + 150 * 0.45), Math.round(c[2] * 0.55 + 220 * 0.45)];
    return "rgb(" + c.join(",") + ")";
  }
  function piece(x, y, shape, seat) {
    var c = seat >= 0 ? DARK[seat % 8] : "#111", r = px / 2, cx = x + r, cy = y + r;
    ctx.fillStyle = c; ctx.strokeStyle = "#fff"; ctx.lineWidth = Math.max(1, px / 16);
    ctx.beginPath();
    if (seat === -2) { // several seats' pieces: a star
      for (var k = 0; k < 10; k++) {
        var a = Math.PI / 2 + k * Math.PI / 5, rr = (k % 2 ? 0.18 : 0.42) * px;
        ctx.lineTo(cx + rr * Math.cos(a), cy - rr * Math.sin(a));
      }
      ctx.closePath(); ctx.fill(); ctx.stroke();
      return;
    }
    switch (shape) {
      case 99: // 'c' cow: a body with a head
        ctx.ellipse(cx - px * 0.05, cy + px * 0.05, px * 0.3, px * 0.22, 0, 0, 2 * Math.PI);
        ctx.fill(); ctx.stroke();
        ctx.beginPath(); ctx.arc(cx + px * 0.25, cy - px * 0.12, px * 0.13, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
        break;
      case 98: // 'b' barn: a house
        ctx.moveTo(x + px * 0.15, y + px * 0.9); ctx.lineTo(x + px * 0.15, y + px * 0.45); ctx.lineTo(cx, y + px * 0.1);
        ctx.lineTo(x + px * 0.85, y + px * 0.45); ctx.lineTo(x + px * 0.85, y + px * 0.9); ctx.closePath();
        ctx.fill(); ctx.stroke();
        ctx.fillStyle = "#fff"; ctx.fillRect(cx - px * 0.1, y + px * 0.6, px * 0.2, px * 0.3);
        break;
      case 114: // 'r' robot: a box with eyes
        ctx.rect(x + px * 0.18, y + px * 0.18, px * 0.64, px * 0.64); ctx.fill(); ctx.stroke();
        ctx.fillStyle = "#fff";
        ctx.fillRect(x + px * 0.3, y + px * 0.35, px * 0.12, px * 0.12); ctx.fillRect(x + px * 0.58, y + px * 0.35, px * 0.12, px * 0.12);
        break;
      case 115: // 's' settlement: a flag on a pole
        ctx.fillRect(x + px * 0.25, y + px * 0.12, px * 0.08, px * 0.76);
        ctx.moveTo(x + px * 0.33, y + px * 0.12); ctx.lineTo(x + px * 0.85, y + px * 0.3); ctx.lineTo(x + px * 0.33, y + px * 0.5);
        ctx.closePath(); ctx.fill(); ctx.stroke();
        break;
      default:
        ctx.arc(cx, cy, px * 0.3, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    }
  }
  function drawCell(i, v) {
    var x = (i % cols) * px, y = Math.floor(i / cols) * px, t = v[0], fill = v[1], pc = v[2], num = v[4];
    var bg = "#f3f1e7";
    if (t === 1) bg = "#555";
    else if (t === 2) bg = landColor(num, false);
    else if (t === 3) bg = landColor(num, true);
    else if (t === 4) bg = "#2f64a8";
    ctx.fillStyle = bg; ctx.fillRect(x, y, px, px);
    if (fill >= 0) {
      ctx.globalAlpha = pc >= 0 || pc === -2 ? 0.45 : 0.85;
      ctx.fillStyle = SEAT[fill % 8]; ctx.fillRect(x, y, px, px);
      ctx.globalAlpha = 1;
    }
    if (pc !== -1) {
      piece(x, y, v[3], pc);
      if (num >= 0 && px >= 16) { // the height under a piece, small in a corner
        ctx.fillStyle = "#fff"; ctx.font = "bold " + Math.floor(px * 0.3) + "px sans-serif";
        ctx.textAlign = "right"; ctx.textBaseline = "bottom";
        ctx.fillText(String(num), x + px - 2, y + px - 1);
      }
    } else if (num >= 0 && px >= 12) {
      ctx.fillStyle = t === 3 ? "#fff" : "#333"; ctx.font = Math.floor(px * 0.45) + "px sans-serif";
      ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.fillText(String(num), x + px / 2, y + px / 2 + 1);
    }
    ctx.strokeStyle = "rgba(0,0,0,0.12)"; ctx.lineWidth = 1; ctx.strokeRect(x + 0.5, y + 0.5, px - 1, px - 1);
  }
  function token(v) {
    function seat(s) { return s === -2 ? "*" : s < 0 ? "-" : String(s); }
    return String.fromCharCode(v[5]) + v[0] + seat(v[1]) + seat(v[2]) + (v[3] ? String.fromCharCode(v[3]) : "-") + (v[4] < 0 ? "-" : String(v[4]));
  }

  // The policy panel and heat map of the chosen network seat.
  var polSel = $("policy-seat"), polOn = $("policy-on");
  if (policies.length > 0) {
    $("policy").hidden = false;
    policies.forEach(function (p, i) {
      var o = document.createElement("option");
      o.value = String(i); o.textContent = "seat " + p.seat + " · " + p.bot;
      polSel.appendChild(o);
    });
    polSel.addEventListener("change", function () { polSel.blur(); show(shown); });
    polOn.addEventListener("mousedown", function (e) { e.preventDefault(); }); // keep the keys for the page
    polOn.addEventListener("change", function () { show(shown); });
  }
  function drawPolicy(n) {
    if (policies.length === 0) return;
    var p = policies[Number(polSel.value) || 0], list = $("policy-list"), value = $("policy-value");
    list.innerHTML = "";
    document.body.dataset.policyTop = "";
    if (n >= steps) { value.textContent = "game over"; return; }
    var q = p.at[n + 1], k = p.top[q++];
    if (k === 0) { value.textContent = "not asked at this step"; return; }
    var v = p.vals[n];
    value.textContent = "value " + (p.lo + (v - 1) / 4095 * (p.hi - p.lo)).toFixed(3) + " · its " + k + " most probable moves:";
    var heat = {}; // target cell → the listed moves' probability there, in thousandths
    for (var j = 0; j < k; j++, q += 3) {
      var text = D.moveTexts[p.top[q]], pm = p.top[q + 1], cell = p.top[q + 2] - 1;
      var li = document.createElement("li");
      li.textContent = text + " " + (pm / 10).toFixed(1) + "%";
      list.appendChild(li);
      if (j === 0) document.body.dataset.policyTop = text;
      if (cell >= 0) heat[cell] = (heat[cell] || 0) + pm;
    }
    if (!polOn.checked) return;
    Object.keys(heat).forEach(function (c) {
      var cell = Number(c), pm = heat[c], x = (cell % cols) * px, y = Math.floor(cell / cols) * px;
      ctx.fillStyle = "rgba(255,170,0," + Math.min(0.75, 0.15 + pm / 1000).toFixed(3) + ")";
      ctx.fillRect(x, y, px, px);
      ctx.strokeStyle = "#c60"; ctx.lineWidth = 2; ctx.strokeRect(x + 1, y + 1, px - 2, px - 2);
      if (px >= 20) {
        ctx.fillStyle = "#000"; ctx.font = "bold " + Math.floor(px * 0.32) + "px sans-serif";
        ctx.textAlign = "center"; ctx.textBaseline = "top";
        ctx.fillText(Math.round(pm / 10) + "%", x + px / 2, y + 1);
      }
    });
  }

  // The final ranking stays collapsed (a spoiler) until the last step is
  // shown or its summary is clicked; until then the score chart is drawn
  // only up to the shown step.
  var rankBox = $("ranking-box");
  function revealed() { return rankBox.open; }
  function drawChart(n) {
    var cx = 4 + (chart.width - 8) * (steps ? n / steps : 0);
    cctx.clearRect(0, 0, chart.width, chart.height);
    if (revealed()) cctx.drawImage(chartBase, 0, 0);
    else if (cx >= 1) cctx.drawImage(chartBase, 0, 0, Math.ceil(cx), chart.height, 0, 0, Math.ceil(cx), chart.height);
    cctx.strokeStyle = "#000"; cctx.lineWidth = 1; cctx.beginPath(); cctx.moveTo(cx, 0); cctx.lineTo(cx, chart.height); cctx.stroke();
  }
  $("ranking-show").addEventListener("mousedown", function (e) { e.preventDefault(); }); // keep the keys for the page
  rankBox.addEventListener("toggle", function () {
    document.body.dataset.ranking = revealed() ? "shown" : "hidden";
    drawChart(shown);
  });
  document.body.dataset.ranking = revealed() ? "shown" : "hidden";

  // The address follows the shown step (#step=N, for a link to it) while
  // not playing, at most ten times a second (browsers throttle history
  // updates), and a page opened at #step=N, or whose address is edited to
  // one, shows step N.
  function hashStep() {
    var m = /^#(?:.*&)?step=(\d+)/.exec(location.hash);
    return m ? Number(m[1]) : -1;
  }
  var hashTimer = null, hashAt = -Infinity, following = false;
  function writeHash() {
    if (timer !== null || hashStep() === shown) return; // playing: pause writes it
    hashAt = performance.now();
    try { history.replaceState(null, "", "#step=" + shown); } catch (e) { /* an address that cannot change */ }
  }
  function followHash() {
    if (!following || hashTimer !== null) return; // a later write is due, with the step it will show
    var wait = hashAt + 100 - performance.now();
    if (wait > 0) hashTimer = setTimeout(function () { hashTimer = null; writeHash(); }, wait);
    else writeHash();
  }
  window.addEventListener("hashchange", function () {
    var n = hashStep();
    if (n >= 0 && n !== shown) { pause(); show(n); }
  });

  var shown = -1, board = new Uint16Array(cells);
  function show(n) {
    n = Math.max(0, Math.min(steps, n | 0));
    var t0 = performance.now();
    board.set(keys[Math.floor(n / KF)]);
    for (var k = Math.floor(n / KF) * KF + 1; k <= n; k++) applyStep(board, k);
    var lines = [], row = [];
    for (var i = 0; i < cells; i++) {
      var v = views[board[i]];
      drawCell(i, v);
      row.push(token(v));
      if (row.length === cols) { lines.push(row.join(" ")); row = []; }
    }
    dump.textContent = lines.join("\n");
    if (n > 0) { // outline the cells this step changed
      ctx.strokeStyle = "#000"; ctx.lineWidth = 2; ctx.setLineDash([3, 2]);
      var q = diffAt[n], kk = diff[q++], idx = -1;
      for (var j = 0; j < kk; j++, q += 2) {
        idx += diff[q] + 1;
        ctx.strokeRect((idx % cols) * px + 1, Math.floor(idx / cols) * px + 1, px - 2, px - 2);
      }
      ctx.setLineDash([]);
    }
    drawPolicy(n);
    shown = n;
    slider.value = String(n);
    $("steplabel").textContent = "step " + n + " / " + steps;
    for (var s = 0; s < seats; s++) {
      var m = n > 0 ? moves[(n - 1) * seats + s] : 0;
      seatRows[s].cells[2].textContent = n === 0 ? "–" : m === 0 ? "(not asked)" : D.moveTexts[m - 1];
      seatRows[s].cells[3].textContent = fmt(scoreAt[s][n]);
    }
    if (n >= steps && !revealed()) rankBox.open = true; // its toggle event draws the chart again
    drawChart(n);
    followHash();
    document.body.dataset.step = String(n);
    document.body.dataset.renderMs = (performance.now() - t0).toFixed(2);
  }

  // Playing: speed in steps per second, one timer.
  var timer = null, last = 0, carry = 0;
  function tick(now) {
    if (timer === null) return;
    var sp = Number(speedSel.value), dt = last ? (now - last) / 1000 : 0;
    last = now; carry += dt * sp;
    var k = Math.floor(carry);
    if (k > 0) { carry -= k; show(shown + k); }
    if (shown >= steps) { pause(); return; }
    timer = requestAnimationFrame(tick);
  }
  function play() {
    if (shown >= steps) show(0);
    last = 0; carry = 1; playBtn.textContent = "❚❚"; playBtn.title = "pause (space)";
    timer = requestAnimationFrame(tick);
    document.body.dataset.playing = "1";
  }
  function pause() {
    if (timer !== null) cancelAnimationFrame(timer);
    timer = null; playBtn.textContent = "▶"; playBtn.title = "play (space)";
    document.body.dataset.playing = "0";
    followHash();
  }
  function toggle() { if (timer === null) play(); else pause(); }
  // Buttons do not take the focus, so the keys keep working after a click.
  Array.prototype.forEach.call(document.querySelectorAll("#controls button"), function (bt) {
    bt.addEventListener("mousedown", function (e) { e.preventDefault(); });
  });
  speedSel.addEventListener("change", function () { speedSel.blur(); });
  playBtn.addEventListener("click", toggle);
  $("first").addEventListener("click", function () { pause(); show(0); });
  $("back").addEventListener("click", function () { pause(); show(shown - 1); });
  $("fwd").addEventListener("click", function () { pause(); show(shown + 1); });
  $("last").addEventListener("click", function () { pause(); show(steps); });
  slider.addEventListener("input", function () { pause(); show(Number(slider.value)); });
  document.addEventListener("keydown", function (e) {
    var tag = e.target && e.target.tagName;
    if (e.target !== slider && (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA")) return;
    var k = e.key;
    if (k === " " || k === "Spacebar") toggle();
    else if (k === "ArrowLeft") { pause(); show(shown - (e.shiftKey ? 10 : 1)); }
    else if (k === "ArrowRight") { pause(); show(shown + (e.shiftKey ? 10 : 1)); }
    else if (k === "Home") { pause(); show(0); }
    else if (k === "End") { pause(); show(steps); }
    else return;
    e.preventDefault();
  });
  show(Math.max(0, hashStep()));
  following = true;
  document.body.dataset.steps = String(steps);
  document.body.dataset.readyMs = performance.now().toFixed(1);
  requestAnimationFrame(function () { document.body.dataset.frameMs = performance.now().toFixed(1); });
  document.body.dataset.ready = "1";
})();
