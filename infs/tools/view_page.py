"""The HTML/JS of ``infs-view``'s page: one self-contained file (no network).

The data (``infs.runtime.view_data``) is embedded as JSON; the script expands
the commands' patterns itself and draws lazily: the lattice layer is drawn
once per program (and zoom window), each step only redraws the highlights.

The machine panel zooms semantically: the mesh of banks, each coloured by a
metric (busy cycles, arrays holding tiles, NoC bytes sent) with its number
written in it; a click on a bank shows its SRAM arrays (the tensors living
on each, or their busy cycles), a click on an array its tile's bitlines;
breadcrumbs (or Escape) zoom out.  Every heat map carries a numeric colour
scale (its minimum, maximum and unit).  The lattice panel zooms into a
window of the tile grid on a click.

The page reports its own errors in ``#errors`` (and ``body[data-errors]``)
and describes the current step in ``#sel`` (JSON), so a headless browser's
``--dump-dom`` can check it.  The URL's fragment selects what is shown:
``prog=K&step=N`` a step, ``noc=run|prog|cmd`` the heat maps' scope,
``metric=busy|occ|noc`` the banks' colour, ``bank=B&array=A`` a zoom,
``lat=R,C`` a lattice window around tile row R, column C; ``click=bank:B,array:A``
clicks those places of the machine panel (as a user would: through the
canvas's click handler), ``bench=N`` times N step redraws into ``#sel``.
"""

from __future__ import annotations

import json
import re

PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>infs-view: __TITLE__</title>
<script>
window.__errs = [];
function __report(msg) {
  window.__errs.push(msg);
  var e = document.getElementById('errors');
  if (e) { e.textContent = window.__errs.join('\n'); e.style.display = 'block'; }
  if (document.body) document.body.dataset.errors = String(window.__errs.length);
}
window.addEventListener('error', function (e) { __report('error: ' + e.message + ' (line ' + e.lineno + ')'); });
window.addEventListener('unhandledrejection', function (e) { __report('error: ' + e.reason); });
var __cerr = console.error;
console.error = function () { __report('console.error: ' + Array.prototype.join.call(arguments, ' ')); __cerr.apply(console, arguments); };
</script>
<style>
body { font: 13px/1.35 system-ui, sans-serif; margin: 12px; color: #222; background: #fafafa; }
h1 { font-size: 18px; margin: 0 0 4px; } h2 { font-size: 14px; margin: 0 0 6px; }
.sub { color: #555; }
#errors { display: none; color: #b00; background: #fee; border: 1px solid #b00; padding: 6px; white-space: pre-wrap; }
#controls { position: sticky; top: 0; background: #fafafa; padding: 6px 0; z-index: 2; border-bottom: 1px solid #ddd; margin-bottom: 8px; }
#controls input[type=range] { width: 380px; vertical-align: middle; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 10px; }
.panel { background: #fff; border: 1px solid #ddd; border-radius: 4px; padding: 8px; overflow: auto; }
canvas { image-rendering: pixelated; display: block; }
canvas.click { cursor: pointer; }
table { border-collapse: collapse; } td, th { padding: 1px 6px; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.legend span.sw { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin: 0 3px 0 8px; border: 1px solid #999; }
.scale { display: inline-flex; align-items: center; gap: 5px; margin: 4px 12px 2px 0; font-size: 12px; font-variant-numeric: tabular-nums; }
.scale .bar { display: inline-block; width: 150px; height: 11px; border: 1px solid #999; }
.crumbs { margin: 0 0 4px; font-size: 13px; } .crumbs a { color: #1f5fbf; cursor: pointer; text-decoration: underline; }
.hover { min-height: 2.7em; color: #333; font-size: 12px; }
.banner { background: #fff6d6; border: 1px solid #e0c060; padding: 6px 8px; margin: 6px 0; }
#list { height: 300px; overflow-y: auto; position: relative; font: 12px monospace; border: 1px solid #ddd; }
#list div.row { position: absolute; left: 0; right: 0; height: 18px; white-space: nowrap; padding-left: 4px; cursor: pointer; }
#list div.row.cur { background: #ffe9a8; }
#cmdinfo td:first-child { color: #555; } #cmdinfo code { font-size: 12px; }
#regions td, #regions th { font-size: 12px; }
#sel { display: none; }
</style></head>
<body>
<h1>infs-view: __TITLE__</h1>
<div class="sub" id="summary"></div>
<div id="notes"></div>
<pre id="errors"></pre>
<div id="controls">
  program <select id="prog"></select>
  <button id="prev" title="previous command (left arrow)">&#9664;</button>
  <input type="range" id="slider" min="0" max="0" value="0">
  <button id="next" title="next command (right arrow)">&#9654;</button>
  <span id="steplabel"></span>
  <br>heat maps over:
  <label><input type="radio" name="noc" value="run" checked> whole run</label>
  <label><input type="radio" name="noc" value="prog"> this program</label>
  <label><input type="radio" name="noc" value="cmd"> this command</label>
  &nbsp; banks coloured by <select id="metric"><option value="busy">busy cycles</option><option value="occ">arrays holding tiles</option><option value="noc">NoC bytes sent</option></select>
</div>
<div class="grid">
  <div class="panel"><h2>Machine</h2>
    <div class="crumbs" id="crumbs"></div>
    <canvas id="machine" class="click"></canvas>
    <div id="mscale"></div>
    <div class="hover" id="mhover"></div>
    <div class="legend" id="legend"></div></div>
  <div class="panel"><h2>Lattice: the tile grid</h2>
    <div class="crumbs" id="latcrumbs"></div>
    <canvas id="lattice" class="click"></canvas>
    <div class="hover" id="lathover"></div>
    <div class="sub" id="latinfo"></div></div>
  <div class="panel"><h2>Command</h2><table id="cmdinfo"></table>
    <h2 style="margin-top:8px">Bitlines of every selected tile</h2><canvas id="tile"></canvas>
    <h2 style="margin-top:8px">Wordlines</h2><canvas id="wordlines"></canvas></div>
  <div class="panel"><h2>NoC: bytes per link, busy cycles per bank</h2>
    <div id="meshwrap"></div><div id="nocscale"></div><div class="sub" id="nocinfo"></div></div>
  <div class="panel"><h2>Cycles (Fig. 14 breakdown)</h2><div id="breakdown"></div>
    <h2 style="margin-top:8px">Regions: where each ran and why</h2><table id="regions"></table></div>
  <div class="panel"><h2>Commands</h2><div id="list"></div></div>
</div>
<pre id="sel"></pre>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
const T0 = performance.now();
const D = JSON.parse(document.getElementById('data').textContent);
const C = D.config;
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#edc948', '#76b7b2', '#ff9da7', '#9c755f', '#e15759', '#bab0ac'];
const CATS = ['dram', 'jit', 'move', 'compute', 'final_reduce', 'near_mem', 'core'];
const CAT_COLORS = {dram: '#8c564b', jit: '#7f7f7f', move: '#1f77b4', compute: '#2ca02c', final_reduce: '#9467bd', near_mem: '#ff7f0e', core: '#d62728'};
const BITS = {f32: 32, i32: 32, i16: 16, i8: 8, i1: 1};
const SRC = '#1f5fbf', DST = '#d62728', BOTH = '#8e44ad', IDLE = '#e6e6e6', EMPTY = '#f6f6f6';
const $ = (id) => document.getElementById(id);
const prod = (a) => a.reduce((x, y) => x * y, 1);
const fmt = (x) => Math.round(x).toLocaleString('en-US');
// a number in a few characters (labels inside banks and arrays)
function compact(x) {
  const a = Math.abs(x);
  if (a >= 1e9) return (x / 1e9).toFixed(a >= 1e10 ? 0 : 1) + 'G';
  if (a >= 1e6) return (x / 1e6).toFixed(a >= 1e7 ? 0 : 1) + 'M';
  if (a >= 1e4) return (x / 1e3).toFixed(a >= 1e5 ? 0 : 1) + 'k';
  return String(Math.round(x));
}
// an element's HTML rewritten only when it changes: a rewrite costs a layout
function setHTML(el, html) { if (typeof el === 'string') el = $(el); if (el.__html !== html) { el.innerHTML = html; el.__html = html; } }
function esc(s) { return String(s).replace(/[&<>"]/g, (ch) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'})[ch]); }

// ---- patterns and moves (mirrors infs/sim/sram/geometry.py) ----
function expand(p) {  // a pattern's indices (typed: a paper-size command selects 16,384 tiles)
  let out = new Float64Array([p[0]]);
  for (const [stride, count] of p[1]) {
    const n = new Float64Array(out.length * count);
    for (let k = 0; k < count; k++) { const o = k * out.length, a = k * stride; for (let i = 0; i < out.length; i++) n[o + i] = out[i] + a; }
    out = n;
  }
  return out;
}
function patText(p) { return p ? String(p[0]) + p[1].map(([s, c]) => ':' + s + ':' + c).join('') : ''; }
const stride = (shape, d) => prod(shape.slice(d + 1));
const coord = (i, shape, d) => Math.floor(i / stride(shape, d)) % shape[d];
const unflat = (i, shape) => shape.map((_, d) => coord(i, shape, d));

function selection(P, c) {
  // src/dst flags over the program's tiles and a tile's bitlines
  const nt = P.num_tiles, B = prod(P.tiles);
  const sel = {st: new Uint8Array(nt), dt: new Uint8Array(nt), sb: new Uint8Array(B), db: new Uint8Array(B), note: ''};
  if (c.k === 'transpose_in' || c.k === 'release' || c.k === 'array') {
    const j = P.arrays.findIndex((a) => a.arr === c.arr);
    // the array's tiles and every bitline of them (an edge tile holds part of the array)
    if (c.k !== 'array' && j >= 0 && j < 30) { const f = c.k === 'release' ? sel.st : sel.dt; for (let t = 0; t < nt; t++) if ((P.mask[t] >> j) & 1) f[t] = 1; (c.k === 'release' ? sel.sb : sel.db).fill(1); }
    return sel;
  }
  if (!c.tiles || !c.bitlines) return sel;
  const tiles = expand(c.tiles).filter((t) => t >= 0 && t < nt), bls = expand(c.bitlines).filter((b) => b >= 0 && b < B);
  const G = P.grid, T = P.tiles;
  if (c.k === 'shift') {
    const d = c.dim, [lo, hi] = c.mask, bs = stride(T, d), ts = stride(G, d);
    for (const b of bls) { const x = coord(b, T, d); if (x >= lo && x < hi && x + c.intra >= 0 && x + c.intra < T[d]) { sel.sb[b] = 1; sel.db[b + c.intra * bs] = 1; } }
    for (const t of tiles) { const g = coord(t, G, d); if (g + c.inter >= 0 && g + c.inter < G[d]) { sel.st[t] = 1; sel.dt[t + c.inter * ts] = 1; } }
  } else if (c.k === 'bcast') {
    const d = c.dim, bs = stride(T, d), ts = stride(G, d);
    for (const b of bls) { sel.sb[b] = 1; const x = coord(b, T, d); for (let k = c.intra[0]; k < c.intra[1]; k++) if (x + k >= 0 && x + k < T[d]) sel.db[b + k * bs] = 1; }
    for (const t of tiles) { sel.st[t] = 1; const g = coord(t, G, d); for (let a = c.inter[0]; a < c.inter[1]; a++) if (g + a >= 0 && g + a < G[d]) sel.dt[t + a * ts] = 1; }
  } else if (c.k === 'readout') {
    for (const t of tiles) sel.st[t] = 1; for (const b of bls) sel.sb[b] = 1;
  } else {  // compute, writein: the cells are written (and read) in place
    for (const t of tiles) { sel.st[t] = 1; sel.dt[t] = 1; } for (const b of bls) { sel.sb[b] = 1; sel.db[b] = 1; }
  }
  return sel;
}
const count = (a) => { let n = 0; for (let i = 0; i < a.length; i++) n += a[i]; return n; };

// ---- colour scales: every heat map says what its colours mean, in numbers ----
const VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
function ramp(st, x) {
  x = Math.max(0, Math.min(1, x)) * (st.length - 1); const i = Math.min(st.length - 2, Math.floor(x)), f = x - i;
  return 'rgb(' + st[i].map((v, k) => Math.round(v + f * (st[i + 1][k] - v))).join(',') + ')';
}
const heat = (x) => ramp(VIRIDIS, x);
const busyColor = (x) => ramp([[255, 255, 255], [255, 135, 20]], x);
const occColor = (x) => ramp([[255, 255, 255], [78, 121, 167]], x);
const METRICS = {
  busy: {color: busyColor, unit: 'busy cycles'},
  occ: {color: occColor, unit: 'arrays holding tiles'},
  noc: {color: heat, unit: 'NoC bytes sent'},
};
// a numeric colour scale: the ramp from min to max, with the values and unit
function scale(id, lo, hi, unit, fn, what) {
  const stops = [0, 0.25, 0.5, 0.75, 1].map((x) => fn(x) + ' ' + (x * 100) + '%').join(',');
  return '<span class="scale" id="' + id + '" data-min="' + lo + '" data-max="' + hi + '" data-unit="' + esc(unit) + '">' + (what ? esc(what) + ': ' : '') +
    '<b>' + fmt(lo) + '</b><span class="bar" style="background:linear-gradient(to right,' + stops + ')"></span><b>' + fmt(hi) + '</b> ' + esc(unit) + '</span>';
}

// ---- layout of the pictures ----
function grid2(shape) {  // rows x cols of a tile grid / a tile drawn flat
  if (shape.length >= 2) {
    const r = prod(shape.slice(0, -1)), c = shape[shape.length - 1];
    // a line of one cell's width (a 256 x 1 tile) is drawn as a 1-D one, folded into a square
    if (Math.min(r, c) > 1 || Math.max(r, c) <= 16) return [r, c];
    shape = [r * c];
  }
  const n = shape[0] || 1, cols = Math.ceil(Math.sqrt(n));
  return [Math.ceil(n / cols), cols];
}
// a bank's arrays as rows x cols: the squarest full rectangle (infs.runtime.view_data.bank_grid)
function bankGrid(n) {
  const c0 = Math.max(1, Math.ceil(Math.sqrt(n)));
  for (let c = c0; c <= 2 * c0; c++) if (n % c === 0) return [n / c, c];
  return [Math.ceil(n / c0), c0];
}
const [BR, BC] = bankGrid(C.per_bank);
const MW = 540, GAP = 6;
const BS = Math.max(8, Math.min(96, Math.floor((MW - GAP * (C.mesh_cols + 1)) / C.mesh_cols)));  // a bank's square at machine scale
const AS = Math.max(4, Math.min(72, Math.floor(480 / Math.max(BR, BC))));  // an array's square at bank scale
function colorsOf(m) { const out = []; for (let j = 0; j < 30 && m >> j; j++) if ((m >> j) & 1) out.push(PALETTE[j % PALETTE.length]); return out; }
// a cell too small for stripes is the blend of its tensors' colours: stripes
// a pixel or two wide would read as texture, the blend as an area
function blend(cols) {
  const v = [0, 0, 0]; for (const c of cols) { const x = parseInt(c.slice(1), 16); v[0] += x >> 16; v[1] += (x >> 8) & 255; v[2] += x & 255; }
  return 'rgb(' + v.map((a) => Math.round(a / cols.length)).join(',') + ')';
}
function fillCell(ctx, x, y, w, h, cols) {
  if (!cols.length) { ctx.fillStyle = IDLE; ctx.fillRect(x, y, w, h); return; }
  if (cols.length === 1 || w < 4 * cols.length) { ctx.fillStyle = cols.length === 1 ? cols[0] : blend(cols); ctx.fillRect(x, y, w, h); return; }
  const sw = w / cols.length;  // one vertical stripe per array living on the tile
  cols.forEach((col, i) => { ctx.fillStyle = col; ctx.fillRect(x + Math.floor(i * sw), y, Math.ceil(sw), h); });
}

// ---- state ----
let P = null, step = 0, sel = null, nocMode = 'run', metric = 'busy';
let zoom = {level: 'machine', bank: -1, array: -1};
let lat = null;  // the lattice's window: {r0, c0, nr, nc} of the rows x cols tile grid
let opened = false;  // (the first view of the page: it may open zoomed)
let hits = [];   // the machine canvas's clickable boxes: [x, y, w, h, what, index]
const progSel = $('prog');

function unrle(r, n, Arr) { const m = new (Arr || Int32Array)(n); let i = 0; for (let k = 0; k < r.length; k += 2) { m.fill(r[k], i, Math.min(n, i + r[k + 1])); i += r[k + 1]; } return m; }

function setProgram(k) {
  P = D.programs[k]; if (!P) return;
  if (!P.mask) {
    P.mask = unrle(P.tile_arrays, P.num_tiles);
    P.tbusy = unrle(P.tile_busy || [], C.banks * C.per_bank, Float64Array);
    P.occ = new Float64Array(C.banks);
    for (let t = 0; t < P.num_tiles; t++) if (P.mask[t]) P.occ[Math.floor(t / C.per_bank)]++;
    P.lgrid = grid2(P.grid);
  }
  progSel.value = String(k);
  $('slider').max = String(Math.max(0, P.cmds.length - 1));
  lat = null; P.L = null;  // (the lattice's layer is drawn again for the whole grid)
  $('latinfo').textContent = 'lattice ' + P.lattice.join(' x ') + ', tiles ' + P.tiles.join(' x ') + ' (' + prod(P.tiles) + ' bitlines), grid ' + P.grid.join(' x ') + ' = ' + fmt(P.num_tiles) + ' tiles on ' + fmt(Math.ceil(P.num_tiles / C.per_bank)) + ' of ' + C.banks + ' banks' + (P.lgrid[0] * P.lgrid[1] > 1024 ? '; click to zoom in' : '');
  $('legend').innerHTML = P.arrays.map((a, j) => '<span class="sw" style="background:' + PALETTE[j % PALETTE.length] + '"></span>%' + esc(a.name) + ' ' + a.shape.join('x') + ' ' + a.element + ' @wl ' + a.wordline).join('') +
    (P.arrays.length > 1 ? ' <span class="sub">(a tile holding several: stripes, or their blend where it is small)</span>' : '') + '<br><span class="sw" style="background:' + SRC + '"></span>source <span class="sw" style="background:' + DST + '"></span>destination <span class="sw" style="background:' + BOTH + '"></span>both <span class="sw" style="background:' + IDLE + '"></span>no tensor <span class="sw" style="background:' + EMPTY + '"></span>unused array';
  renderList(true);
  drawBreakdown();
}

// ---- the machine panel: banks -> a bank's arrays -> an array's bitlines ----
function linkOut(lb) {  // bytes each bank's router sends on its links (noc.Mesh layout)
  const R = C.mesh_rows, Q = C.mesh_cols, out = new Float64Array(C.banks);
  if (!lb) return out;
  for (let y = 0; y < R; y++) for (let x = 0; x < Q; x++) {
    const i = y * Q + x, b = y * Q + x;
    if (x + 1 < Q) { out[b] += lb[i] || 0; out[b + 1] += lb[R * Q + i] || 0; }
    if (y + 1 < R) { out[b] += lb[2 * R * Q + i] || 0; out[b + Q] += lb[3 * R * Q + i] || 0; }
  }
  return out;
}
function scopeLinks() {
  if (nocMode === 'run' || !P) return D.run.link_bytes;
  if (nocMode === 'prog') return P.link_bytes || [];
  const lb = new Array(4 * C.banks).fill(0); for (const [i, v] of (P.links[String(step)] || [])) lb[i] = v; return lb;
}
function scopeBusy() {
  if (nocMode === 'run' || !P) return D.run.bank_busy;
  if (nocMode === 'prog') return P.bank_busy;
  const c = P.cmds[step], busy = new Float64Array(C.banks), cyc = P.cost.cycles[step];
  if (c.banks) { for (const b of expand(c.banks)) if (b >= 0 && b < C.banks) busy[b] = cyc; }
  else for (let t = 0; t < sel.st.length; t++) if (sel.st[t] || sel.dt[t]) busy[Math.floor(t / C.per_bank)] = cyc;
  return busy;
}
function bankValues() {
  if (metric === 'occ') return P ? P.occ : new Float64Array(C.banks);
  if (metric === 'noc') return linkOut(scopeLinks());
  return scopeBusy();
}
const scopeText = () => nocMode === 'run' ? 'whole run' : nocMode === 'prog' ? 'program ' + P.id : 'command ' + step;
function bankXY(b) { return [GAP + (b % C.mesh_cols) * (BS + GAP), GAP + Math.floor(b / C.mesh_cols) * (BS + GAP)]; }
function label(ctx, text, x, y, size, dark) { ctx.font = size + 'px sans-serif'; ctx.textAlign = 'center'; ctx.textBaseline = 'middle'; ctx.fillStyle = dark ? '#fff' : '#111'; ctx.fillText(text, x, y); }
function selCounts() {  // per bank: source and destination tiles of the current command
  const s = new Int32Array(C.banks), d = new Int32Array(C.banks);
  if (sel) for (let t = 0; t < sel.st.length; t++) { const b = (t / C.per_bank) | 0; s[b] += sel.st[t]; d[b] += sel.dt[t]; }
  return [s, d];
}
function outline(ctx, x, y, w, h, s, d, lw) {
  if (!s && !d) return;
  ctx.strokeStyle = s && d ? BOTH : s ? SRC : DST; ctx.lineWidth = lw; ctx.strokeRect(x + lw / 2, y + lw / 2, w - lw, h - lw);
}
let mstat = {};
function drawMachine() {
  const cv = $('machine'), ctx = cv.getContext('2d');
  hits = [];
  if (zoom.level === 'machine') drawBanks(cv, ctx); else if (zoom.level === 'bank') drawBank(cv, ctx); else drawArray(cv, ctx);
  const crumbs = ['<a data-z="machine">machine: ' + C.mesh_rows + 'x' + C.mesh_cols + ' banks</a>'];
  if (zoom.level !== 'machine') crumbs.push((zoom.level === 'bank' ? '' : '<a data-z="bank">') + 'bank ' + zoom.bank + ' (x ' + (zoom.bank % C.mesh_cols) + ', y ' + Math.floor(zoom.bank / C.mesh_cols) + ')' + (zoom.level === 'bank' ? '' : '</a>'));
  if (zoom.level === 'array') crumbs.push('array ' + zoom.array + ' (tile ' + (zoom.bank * C.per_bank + zoom.array) + ')');
  setHTML('crumbs', crumbs.join(' &rsaquo; ') + (zoom.level !== 'machine' ? ' &nbsp;<button id="zout" title="zoom out (Escape)">zoom out</button>' : ' <span class="sub">(click a bank to see its arrays)</span>'));
}
let banksBase = null;  // the banks' fills and numbers, drawn once per (metric, scope, program[, step]): a step adds its outlines
function drawBanks(cv, ctx) {
  const W = GAP + C.mesh_cols * (BS + GAP), H = GAP + C.mesh_rows * (BS + GAP);
  if (cv.width !== W || cv.height !== H) { cv.width = W; cv.height = H; }
  const M = METRICS[metric], key = metric + ':' + nocMode + ':' + (P ? P.id : '') + (nocMode === 'cmd' && metric !== 'occ' ? ':' + step : '');
  const big = BS >= 30;
  if (!banksBase || banksBase.key !== key) {
    const v = bankValues(), base = document.createElement('canvas'); base.width = W; base.height = H;
    const bx = base.getContext('2d'); bx.fillStyle = '#fff'; bx.fillRect(0, 0, W, H);
    let lo = Infinity, hi = 0; for (let b = 0; b < C.banks; b++) { lo = Math.min(lo, v[b]); hi = Math.max(hi, v[b]); }
    if (!isFinite(lo)) lo = 0;
    let labels = 0;
    for (let b = 0; b < C.banks; b++) {
      const [x, y] = bankXY(b), f = hi > 0 ? v[b] / hi : 0;
      bx.fillStyle = M.color(f); bx.fillRect(x, y, BS, BS);
      bx.strokeStyle = '#888'; bx.lineWidth = 1; bx.strokeRect(x + 0.5, y + 0.5, BS - 1, BS - 1);
      if (BS >= 18) { label(bx, compact(v[b]), x + BS / 2, y + (big ? BS * 0.38 : BS / 2), Math.min(15, Math.max(8, BS / 4)), metric === 'noc' && f < 0.55); labels++; }
    }
    banksBase = {key: key, canvas: base, lo: lo, hi: hi, labels: labels};
  }
  ctx.drawImage(banksBase.canvas, 0, 0);
  const [s, d] = selCounts();
  for (let b = 0; b < C.banks; b++) {
    const [x, y] = bankXY(b);
    outline(ctx, x, y, BS, BS, s[b], d[b], Math.max(2, BS / 12));
    if (big && (s[b] || d[b])) label(ctx, (s[b] ? 's' + s[b] : '') + (s[b] && d[b] ? ' ' : '') + (d[b] ? 'd' + d[b] : ''), x + BS / 2, y + BS * 0.72, Math.min(11, Math.max(7, BS / 6.5)), false);
    hits.push([x, y, BS, BS, 'bank', b]);
  }
  const unit = metric === 'occ' ? 'arrays holding tiles (of ' + C.per_bank + ')' : M.unit, hi = banksBase.hi;
  setHTML('mscale', scale('mscale-bar', Math.min(banksBase.lo, 0), hi, unit, M.color, 'banks, ' + (metric === 'occ' ? 'this program' : scopeText())) +
    (sel ? '<br><span class="sub">outlined: banks the command reads (s: source tiles) and writes (d: destination tiles) in</span>' : ''));
  mstat = {level: 'machine', cells: C.banks, labels: banksBase.labels, min: 0, max: hi, unit: unit};
}
function drawBank(cv, ctx) {
  const b = zoom.bank, W = BC * AS + 2, H = BR * AS + 2;
  if (cv.width !== W || cv.height !== H) { cv.width = W; cv.height = H; }
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, W, H);
  const heatMode = metric !== 'occ' && P, tb = P ? P.tbusy : null;
  let hi = 0;
  if (heatMode) for (let a = 0; a < C.per_bank; a++) { const t = b * C.per_bank + a; const v = nocMode === 'cmd' ? (sel.st[t] || sel.dt[t] ? P.cost.cycles[step] : 0) : tb[t]; hi = Math.max(hi, v); }
  let labels = 0;
  for (let a = 0; a < C.per_bank; a++) {
    const t = b * C.per_bank + a, x = 1 + (a % BC) * AS, y = 1 + Math.floor(a / BC) * AS, inProg = P && t < P.num_tiles;
    if (heatMode) {
      const v = nocMode === 'cmd' ? (sel.st[t] || sel.dt[t] ? P.cost.cycles[step] : 0) : tb[t];
      ctx.fillStyle = inProg ? busyColor(hi ? v / hi : 0) : EMPTY; ctx.fillRect(x, y, AS - 1, AS - 1);
      if (AS >= 22 && inProg) { label(ctx, compact(v), x + AS / 2, y + AS / 2, Math.min(11, AS / 3), false); labels++; }
    } else {
      if (inProg) fillCell(ctx, x, y, AS - 1, AS - 1, colorsOf(P.mask[t])); else { ctx.fillStyle = EMPTY; ctx.fillRect(x, y, AS - 1, AS - 1); }
      if (AS >= 22 && inProg) { label(ctx, String(t), x + AS / 2, y + AS / 2, Math.min(10, AS / 3.2), false); labels++; }
    }
    if (sel && inProg) outline(ctx, x, y, AS - 1, AS - 1, sel.st[t], sel.dt[t], Math.max(2, AS / 9));
    hits.push([x, y, AS, AS, 'array', a]);
  }
  setHTML('mscale', heatMode ? scale('mscale-bar', 0, hi, 'busy cycles', busyColor, 'arrays of bank ' + b + ', ' + (nocMode === 'cmd' ? 'command ' + step : 'program ' + P.id) + (metric === 'noc' ? ' (NoC bytes are per bank: arrays show busy cycles)' : ''))
    : '<span class="sub" id="mscale-bar" data-unit="tensors">arrays of bank ' + b + ' coloured by the tensors on their tile' + (AS >= 22 ? ', labelled with the tile\'s number' : '') + '; outlined: the command\'s source/destination</span>');
  mstat = {level: 'bank', bank: b, cells: C.per_bank, labels: labels, min: 0, max: hi, unit: heatMode ? 'busy cycles' : 'tensors'};
}
function drawArray(cv, ctx) {
  const t = zoom.bank * C.per_bank + zoom.array;
  if (!P || t >= P.num_tiles) {
    cv.width = MW; cv.height = 40; ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, MW, 40); label(ctx, 'array ' + zoom.array + ' of bank ' + zoom.bank + ' holds no tile of this program', MW / 2, 20, 13, false);
    setHTML('mscale', ''); mstat = {level: 'array', bank: zoom.bank, array: zoom.array, tile: t, cells: 0, labels: 0}; return;
  }
  const T = P.tiles, [r, q] = grid2(T), cell = Math.max(4, Math.min(48, Math.floor(480 / Math.max(r, q))));
  const W = q * cell + 2, H = r * cell + 2;
  if (cv.width !== W || cv.height !== H) { cv.width = W; cv.height = H; }
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, W, H);
  const s = sel && sel.st[t], d = sel && sel.dt[t];
  let labels = 0, ns = 0, nd = 0;
  for (let b = 0; b < prod(T); b++) {
    const x = 1 + (b % q) * cell, y = 1 + Math.floor(b / q) * cell, bs = s && sel.sb[b], bd = d && sel.db[b];
    ns += bs ? 1 : 0; nd += bd ? 1 : 0;
    ctx.fillStyle = bs && bd ? BOTH : bs ? SRC : bd ? DST : IDLE; ctx.fillRect(x, y, cell - 1, cell - 1);
    if (cell >= 18) { label(ctx, String(b), x + cell / 2, y + cell / 2, Math.min(10, cell / 2.6), bs || bd); labels++; }
    hits.push([x, y, cell, cell, 'bitline', b]);
  }
  const g = unflat(t, P.grid), lo = g.map((v, i) => v * T[i]);
  setHTML('mscale', '<span class="sub" id="mscale-bar" data-unit="bitlines">tile ' + t + ' = grid (' + g.join(', ') + '), lattice cells [' + lo.map((v, i) => v + ', ' + (v + T[i])).join(') x [') + '); ' + prod(T) + ' bitlines (labelled) x ' + (P.wordlines || C.wordlines) + ' wordlines; busy ' + fmt(P.tbusy[t]) + ' cycles in program ' + P.id +
    '; this command: ' + (s || d ? (s ? ns + ' source' : '') + (s && d ? ', ' : '') + (d ? nd + ' destination' : '') + ' bitlines' : 'not this array') + '</span>');
  mstat = {level: 'array', bank: zoom.bank, array: zoom.array, tile: t, cells: prod(T), labels: labels, src_bitlines: ns, dst_bitlines: nd};
}
function hitAt(ev) {
  const cv = $('machine'), r = cv.getBoundingClientRect(), x = (ev.clientX - r.left) * cv.width / r.width, y = (ev.clientY - r.top) * cv.height / r.height;
  return hits.find(([hx, hy, w, h]) => x >= hx && x < hx + w && y >= hy && y < hy + h);
}
function describe(h) {
  if (!h) return '';
  const [, , , , what, i] = h;
  if (what === 'bank') {
    const v = bankValues(), [s, d] = selCounts(), busy = scopeBusy(), out = linkOut(scopeLinks());
    return 'bank ' + i + ' (x ' + (i % C.mesh_cols) + ', y ' + Math.floor(i / C.mesh_cols) + '): ' + (P ? fmt(P.occ[i]) + ' of ' + C.per_bank + ' arrays hold tiles of program ' + P.id + '; ' : '') +
      'busy ' + fmt(busy[i]) + ' cycles, sends ' + fmt(out[i]) + ' NoC bytes (' + scopeText() + ')' + (P ? '; this command: ' + s[i] + ' source, ' + d[i] + ' destination tiles' : '') + '. Click: its arrays.';
  }
  if (what === 'array') {
    const t = zoom.bank * C.per_bank + i;
    if (!P || t >= P.num_tiles) return 'array ' + i + ' of bank ' + zoom.bank + ': no tile of this program';
    const names = P.arrays.filter((a, j) => j < 30 && (P.mask[t] >> j) & 1).map((a) => '%' + a.name);
    return 'array ' + i + ' of bank ' + zoom.bank + ' = tile ' + t + ' (grid ' + unflat(t, P.grid).join(', ') + '): ' + (names.join(', ') || 'no tensor') + '; busy ' + fmt(P.tbusy[t]) + ' cycles in program ' + P.id +
      '; this command: ' + (sel.st[t] && sel.dt[t] ? 'source and destination' : sel.st[t] ? 'source' : sel.dt[t] ? 'destination' : 'not this tile') + '. Click: its bitlines.';
  }
  const t = zoom.bank * C.per_bank + zoom.array, g = unflat(t, P.grid), e = unflat(i, P.tiles);
  return 'bitline ' + i + ' of tile ' + t + ' = lattice cell (' + g.map((v, k) => v * P.tiles[k] + e[k]).join(', ') + ')' + (sel.st[t] && sel.sb[i] ? ', source' : '') + (sel.dt[t] && sel.db[i] ? ', destination' : '');
}
function zoomTo(level, bank, array) {
  zoom = {level: level, bank: level === 'machine' ? -1 : bank, array: level === 'array' ? array : -1};
  drawMachine(); writeSel(); writeHash();
}
function zoomOut() { if (zoom.level === 'array') zoomTo('bank', zoom.bank); else if (zoom.level === 'bank') zoomTo('machine'); }
function clickMachine(ev) {
  const h = hitAt(ev);
  if (!h) return;
  if (h[4] === 'bank') zoomTo('bank', h[5]); else if (h[4] === 'array') zoomTo('array', zoom.bank, h[5]);
  $('mhover').textContent = describe(hitAt(ev));
}

// ---- the lattice panel: the tile grid, or a window of it ----
const LW = 540, LH = 420, LZ = 32;  // LZ x LZ tiles: the window a click zooms into
function latView() {
  const [R, Q] = P.lgrid, w = lat || {r0: 0, c0: 0, nr: R, nc: Q};
  let cw = Math.min(40, LW / w.nc), ch = Math.min(40, LH / w.nr);
  if (Math.min(cw, ch) >= 2) cw = ch = Math.min(cw, ch);  // square tiles when they are visible so; else each axis fills its side
  const xs = new Int32Array(w.nc + 1), ys = new Int32Array(w.nr + 1);
  for (let i = 0; i <= w.nc; i++) xs[i] = Math.floor(i * cw); for (let i = 0; i <= w.nr; i++) ys[i] = Math.floor(i * ch);
  return {w: w, xs: xs, ys: ys, W: Math.max(1, xs[w.nc]), H: Math.max(1, ys[w.nr]), cw: cw, ch: ch};
}
function packed(hex) { const v = parseInt(hex.slice(1), 16); return (0xff000000 | ((v & 255) << 16) | (v & 0xff00) | (v >> 16)) >>> 0; }
const PSRC = packed(SRC), PDST = packed(DST), PBOTH = packed(BOTH);
function buildLattice() {
  // the base layer (tensors per tile) and its dimmed copy, for this window
  const L = latView(), cv = document.createElement('canvas'); cv.width = L.W; cv.height = L.H;
  const ctx = cv.getContext('2d'); ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, L.W, L.H);
  const Q = P.lgrid[1], w = L.w;
  for (let r = 0; r < w.nr; r++) for (let c = 0; c < w.nc; c++) {
    const t = (w.r0 + r) * Q + w.c0 + c; if (t >= P.num_tiles) continue;
    const x = L.xs[c], y = L.ys[r], cw = Math.max(1, L.xs[c + 1] - x), chh = Math.max(1, L.ys[r + 1] - y);
    fillCell(ctx, x, y, cw - (cw > 6 ? 1 : 0), chh - (chh > 6 ? 1 : 0), colorsOf(P.mask[t]));
  }
  const img = ctx.getImageData(0, 0, L.W, L.H), px = img.data;
  for (let i = 0; i < px.length; i += 4) for (let k = 0; k < 3; k++) px[i + k] = px[i + k] + ((255 - px[i + k]) * 0.55) | 0;
  L.dim = new Uint32Array(img.data.buffer); L.base = cv; L.out = new ImageData(L.W, L.H); L.o = new Uint32Array(L.out.data.buffer);
  const lc = $('lattice'); lc.width = L.W; lc.height = L.H;
  P.L = L;
  const z = lat !== null;
  $('latcrumbs').innerHTML = (z ? '<a data-lat="all">whole lattice</a> &rsaquo; tile rows ' + w.r0 + '..' + (w.r0 + w.nr - 1) + ', columns ' + w.c0 + '..' + (w.c0 + w.nc - 1) : 'whole lattice: ' + P.lgrid[0] + ' x ' + P.lgrid[1] + ' tiles') +
    ' <span class="sub">(' + (L.cw >= 1 ? L.cw.toFixed(L.cw < 10 ? 1 : 0) : '1/' + Math.round(1 / L.cw)) + ' x ' + (L.ch >= 1 ? L.ch.toFixed(L.ch < 10 ? 1 : 0) : '1/' + Math.round(1 / L.ch)) + ' px per tile' + (!z && P.lgrid[0] * P.lgrid[1] > LZ * LZ ? '; click to zoom in' : '') + ')</span>';
}
function drawLattice() {
  if (!P.L) buildLattice();
  const L = P.L, o = L.o, W = L.W, w = L.w, Q = P.lgrid[1];
  o.set(L.dim);
  let painted = 0;
  const gx = L.cw > 6 ? 1 : 0, gy = L.ch > 6 ? 1 : 0;  // the 1-pixel gaps between large tiles stay
  const kind = (t) => t >= P.num_tiles ? 0 : (sel.st[t] ? 1 : 0) | (sel.dt[t] ? 2 : 0), COL = [0, PSRC, PDST, PBOTH];
  for (let r = 0; r < w.nr; r++) {
    // per row of tiles, runs of equally selected tiles: one fill per run and pixel row
    const y0 = L.ys[r], y1 = Math.min(L.H, Math.max(y0 + 1, L.ys[r + 1])), rowT = (w.r0 + r) * Q + w.c0;
    for (let c = 0; c < w.nc;) {
      const k = kind(rowT + c); let e = c + 1;
      if (!gx) while (e < w.nc && kind(rowT + e) === k) e++;
      if (k) {
        const x0 = L.xs[c], x1 = Math.min(W, Math.max(x0 + 1, L.xs[e] - gx));  // at least a pixel: a selected row stays visible
        for (let y = y0; y < y1 - gy; y++) o.fill(COL[k], y * W + x0, y * W + x1);
        painted += e - c;
      }
      c = e;
    }
  }
  $('lattice').getContext('2d').putImageData(L.out, 0, 0);
  return painted;
}
function latHit(ev) {
  const cv = $('lattice'), r = cv.getBoundingClientRect(), L = P.L, x = (ev.clientX - r.left) * cv.width / r.width, y = (ev.clientY - r.top) * cv.height / r.height;
  let c = 0, rr = 0; while (c < L.w.nc && L.xs[c + 1] <= x) c++; while (rr < L.w.nr && L.ys[rr + 1] <= y) rr++;
  if (c >= L.w.nc || rr >= L.w.nr) return null;
  return [L.w.r0 + rr, L.w.c0 + c];
}
function latZoom(r, c) {
  const [R, Q] = P.lgrid;
  if (r === null) lat = null;
  else { const nr = Math.min(R, LZ), nc = Math.min(Q, LZ); lat = {r0: Math.max(0, Math.min(R - nr, r - (nr >> 1))), c0: Math.max(0, Math.min(Q - nc, c - (nc >> 1))), nr: nr, nc: nc}; }
  P.L = null; drawLattice(); writeSel(); writeHash();
}

// ---- a step ----
let lastInfo = {};
const PARTS = {};  // milliseconds spent in each part of the step redraws (#bench's breakdown)
function setStep(s) {
  if (!P) return;
  const t0 = performance.now();
  step = Math.max(0, Math.min(P.cmds.length - 1, s | 0));
  const c = P.cmds[step], parts = PARTS, tick = (k, t) => { const n = performance.now(); parts[k] = (parts[k] || 0) + n - t; return n; };
  let t = t0;
  renderList(false, true); t = tick('list', t);  // first: it reads the list's scroll position, before this step's writes make the layout stale
  sel = selection(P, c); t = tick('selection', t);
  $('slider').value = String(step);
  $('steplabel').textContent = 'command ' + step + ' / ' + (P.cmds.length - 1) + ': ' + c.k + (c.op ? ' ' + c.op : '');
  const painted = drawLattice(); t = tick('lattice', t);
  drawMachine(); t = tick('machine', t);
  drawTile(c, sel); drawWordlines(c); cmdInfo(c, sel); t = tick('command', t);
  drawMesh(); t = tick('noc', t);
  lastInfo = {prog: P.id, step: step, kind: c.k, src_tiles: count(sel.st), dst_tiles: count(sel.dt), src_bitlines: count(sel.sb), dst_bitlines: count(sel.db),
    first_src_bitlines: Array.from(sel.sb.keys()).filter((i) => sel.sb[i]).slice(0, 16), machine_cells: mstat.cells, lattice_cells: P.num_tiles, lattice_painted: painted,
    step_ms: Math.round((performance.now() - t0) * 10) / 10, load_ms: Math.round(performance.now() - T0)};
  writeSel();
  document.body.dataset.step = String(step);
  writeHash();
}
function writeSel() {
  const info = Object.assign({}, lastInfo, {zoom: zoom, machine: mstat, metric: metric, scope: nocMode, lattice_window: lat ? [lat.r0, lat.c0, lat.nr, lat.nc] : null, lattice_px: P && P.L ? [P.L.W, P.L.H] : null});
  $('sel').textContent = JSON.stringify(info);
}
function writeHash() {
  if (!P) return;
  const h = '#prog=' + P.id + '&step=' + step + (nocMode !== 'run' ? '&noc=' + nocMode : '') + (metric !== 'busy' ? '&metric=' + metric : '') +
    (zoom.level !== 'machine' ? '&bank=' + zoom.bank : '') + (zoom.level === 'array' ? '&array=' + zoom.array : '') + (lat ? '&lat=' + (lat.r0 + (lat.nr >> 1)) + ',' + (lat.c0 + (lat.nc >> 1)) : '');
  if (location.hash !== h) history.replaceState(null, '', h);
}

function drawTile(c, sel) {
  const T = P.tiles, [r, q] = grid2(T), cell = Math.max(2, Math.min(16, Math.floor(300 / Math.max(r, q))));
  const cv = $('tile'); cv.width = q * cell + 1; cv.height = r * cell + 1;
  const ctx = cv.getContext('2d'); ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, cv.width, cv.height);
  for (let b = 0; b < prod(T); b++) {
    ctx.fillStyle = sel.sb[b] && sel.db[b] ? BOTH : sel.sb[b] ? SRC : sel.db[b] ? DST : IDLE;
    ctx.fillRect((b % q) * cell, Math.floor(b / q) * cell, cell - (cell > 3 ? 1 : 0), cell - (cell > 3 ? 1 : 0));
  }
  if ((c.k === 'shift' || c.k === 'bcast') && T.length) {  // an arrow along the moved dim
    const d = c.dim, horiz = d === T.length - 1 && T.length > 1 || T.length === 1;
    const amt = netMove(c);
    const sgn = amt < 0 ? -1 : 1, cx = cv.width / 2, cy = cv.height / 2, L = Math.min(cv.width, cv.height) / 3;
    const ex = horiz ? cx + sgn * L : cx, ey = horiz ? cy : cy + sgn * L;
    ctx.strokeStyle = '#000'; ctx.fillStyle = '#000'; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.moveTo(horiz ? cx - sgn * L : cx, horiz ? cy : cy - sgn * L); ctx.lineTo(ex, ey); ctx.stroke();
    ctx.beginPath();
    if (horiz) { ctx.moveTo(ex + sgn * 8, ey); ctx.lineTo(ex - sgn * 4, ey - 8); ctx.lineTo(ex - sgn * 4, ey + 8); }
    else { ctx.moveTo(ex, ey + sgn * 8); ctx.lineTo(ex - 8, ey - sgn * 4); ctx.lineTo(ex + 8, ey - sgn * 4); }
    ctx.fill();
  }
}

// lattice distance of a move along its dim: tiles x tile size + bitlines (a
// broadcast: its farthest copy)
function netMove(c) {
  const Td = P.tiles[c.dim];
  if (c.k === 'shift') return c.inter * Td + c.intra;
  const lo = c.inter[0] * Td + c.intra[0], hi = (c.inter[1] - 1) * Td + c.intra[1] - 1;
  return Math.abs(hi) >= Math.abs(lo) ? hi : lo;
}
function regsOf(c) {  // [[start, bits, role]] of the command's registers
  const bits = BITS[c.type] || 32, out = [];
  if (c.arr !== undefined) { const a = P.arrays.find((x) => x.arr === c.arr); if (a) out.push([a.wordline, a.bits, c.k === 'release' ? 'src' : 'dst']); }
  if (c.srcs) for (const s of c.srcs) out.push([s, bits, 'src']);
  if (c.src !== undefined && c.k !== 'compute') out.push([c.src, bits, 'src']);
  if (c.dst !== undefined) out.push([c.dst, bits, 'dst']);
  return out;
}
function drawWordlines(c) {
  const W = P.wordlines || C.wordlines, cv = $('wordlines'); cv.width = 540; cv.height = 58;
  const ctx = cv.getContext('2d'), sx = (w) => 4 + (w / W) * 532;
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, cv.width, cv.height);
  ctx.fillStyle = IDLE; ctx.fillRect(4, 14, 532, 18);
  ctx.font = '10px sans-serif'; ctx.textAlign = 'left'; ctx.textBaseline = 'alphabetic';
  P.arrays.forEach((a, j) => { ctx.fillStyle = PALETTE[j % PALETTE.length]; ctx.fillRect(sx(a.wordline), 14, Math.max(1, sx(a.wordline + a.bits) - sx(a.wordline)), 18); ctx.fillStyle = '#000'; ctx.fillText('%' + a.name, sx(a.wordline) + 2, 11); });
  for (const [s, b, role] of regsOf(c)) {
    ctx.strokeStyle = role === 'src' ? SRC : DST; ctx.lineWidth = 3; ctx.strokeRect(sx(s), role === 'src' ? 34 : 36, Math.max(2, sx(s + b) - sx(s)), 8);
    ctx.fillStyle = ctx.strokeStyle; ctx.fillText(role + ' ' + s, sx(s), 55);
  }
  ctx.fillStyle = '#555'; ctx.textAlign = 'right'; ctx.fillText(W + ' wordlines', 536, 11); ctx.textAlign = 'left';
}

function cmdInfo(c, sel) {
  const rows = [['#', step], ['command', '<code>' + esc(c.k + (c.op ? ' ' + c.op : '') + (c.type ? ' ' + c.type : '')) + '</code>']];
  const regs = regsOf(c);
  if (regs.length) rows.push(['wordlines', regs.map(([s, b, r]) => r + ' ' + s + '..' + (s + b - 1)).join(', ')]);
  if (c.arr !== undefined) { const a = P.arrays.find((x) => x.arr === c.arr); rows.push(['array', a ? '%' + esc(a.name) + ' ' + a.shape.join('x') + ' @wl ' + a.wordline : String(c.arr)]); }
  if (c.tiles) rows.push(['tiles', '<code>' + patText(c.tiles) + '</code> (' + fmt(count(sel.st)) + ' source' + (c.k === 'shift' || c.k === 'bcast' ? ', ' + fmt(count(sel.dt)) + ' destination' : '') + ')']);
  if (c.bitlines) rows.push(['bitlines', '<code>' + patText(c.bitlines) + '</code> (' + count(sel.sb) + ' of ' + prod(P.tiles) + ' per tile)']);
  if (c.banks) rows.push(['banks', '<code>' + patText(c.banks) + '</code>']);
  const dirs = (d, v) => { const names = P.tiles.length === 1 ? ['right', 'left'] : d === P.tiles.length - 1 ? ['right', 'left'] : ['down', 'up']; return v > 0 ? names[0] : v < 0 ? names[1] : 'none'; };
  if (c.k === 'shift') rows.push(['shift', 'dim ' + c.dim + ' mask [' + c.mask.join(', ') + '): ' + c.inter + ' tiles, ' + c.intra + ' bitlines = ' + netMove(c) + ' lattice cells (' + dirs(c.dim, netMove(c)) + ')']);
  if (c.k === 'bcast') rows.push(['broadcast', 'dim ' + c.dim + ': tile offsets [' + c.inter.join(', ') + '), bitline offsets [' + c.intra.join(', ') + '): fan-out ' + (c.inter[1] - c.inter[0]) * (c.intra[1] - c.intra[0]) + ' copies per cell']);
  for (const k of ['const', 'const_arg', 'id', 'input', 'out', 'dims', 'domain']) if (c[k] !== undefined) rows.push([k, '<code>' + esc(JSON.stringify(c[k])) + '</code>']);
  const cost = P.cost;
  rows.push(['cost', fmt(cost.cycles[step]) + ' cycles' + (cost.category[step] ? ' (' + cost.category[step] + ')' : '') + ', NoC ' + fmt(cost.noc[step]) + ' byte-hops']);
  setHTML('cmdinfo', rows.map(([k, v]) => '<tr><td>' + k + '</td><td>' + v + '</td></tr>').join(''));
}

// ---- NoC heat map (SVG) ----
const SP = Math.max(18, Math.min(60, Math.floor(520 / Math.max(C.mesh_rows, C.mesh_cols)))), NS = Math.floor(SP * 0.45);
const svgNS = 'http://www.w3.org/2000/svg';
let mesh = null;
function buildMesh() {
  const R = C.mesh_rows, Q = C.mesh_cols, svg = document.createElementNS(svgNS, 'svg');
  svg.setAttribute('width', Q * SP + 20); svg.setAttribute('height', R * SP + 20); svg.id = 'mesh';
  const links = [], nodes = [], texts = [];
  const line = (x1, y1, x2, y2) => { const l = document.createElementNS(svgNS, 'line'); l.setAttribute('x1', x1); l.setAttribute('y1', y1); l.setAttribute('x2', x2); l.setAttribute('y2', y2); l.setAttribute('stroke-width', 3); l.appendChild(document.createElementNS(svgNS, 'title')); svg.appendChild(l); return l; };
  const cx = (x) => 10 + SP / 2 + x * SP, o = 4;
  for (let d = 0; d < 4; d++) for (let y = 0; y < R; y++) for (let x = 0; x < Q; x++) {
    let l = null;
    if (d === 0 && x + 1 < Q) l = line(cx(x) + NS / 2, cx(y) - o, cx(x + 1) - NS / 2, cx(y) - o);
    if (d === 1 && x + 1 < Q) l = line(cx(x + 1) - NS / 2, cx(y) + o, cx(x) + NS / 2, cx(y) + o);
    if (d === 2 && y + 1 < R) l = line(cx(x) + o, cx(y) + NS / 2, cx(x) + o, cx(y + 1) - NS / 2);
    if (d === 3 && y + 1 < R) l = line(cx(x) - o, cx(y + 1) - NS / 2, cx(x) - o, cx(y) + NS / 2);
    if (l) links.push([d * R * Q + y * Q + x, l, ['E', 'W', 'S', 'N'][d] + ' of (' + x + ',' + y + ')']);
  }
  for (let b = 0; b < C.banks; b++) {
    const r = document.createElementNS(svgNS, 'rect'), x = b % Q, y = Math.floor(b / Q);
    r.setAttribute('x', cx(x) - NS / 2); r.setAttribute('y', cx(y) - NS / 2); r.setAttribute('width', NS); r.setAttribute('height', NS);
    r.setAttribute('stroke', '#666'); r.appendChild(document.createElementNS(svgNS, 'title')); svg.appendChild(r); nodes.push(r);
    if (NS >= 20) {  // the bank's busy cycles written in its node
      const t = document.createElementNS(svgNS, 'text'); t.setAttribute('x', cx(x)); t.setAttribute('y', cx(y) + 3); t.setAttribute('text-anchor', 'middle');
      t.setAttribute('font-size', Math.min(10, NS / 2.6)); t.setAttribute('pointer-events', 'none'); svg.appendChild(t); texts.push(t);
    }
  }
  $('meshwrap').appendChild(svg);
  mesh = {links, nodes, texts};
}
let meshKey = null;
function setAttr(el, k, v) { if (el.getAttribute(k) !== v) el.setAttribute(k, v); }  // (an SVG attribute written only when it changes)
function drawMesh() {
  if (!mesh) buildMesh();
  const key = nocMode + ':' + (P ? P.id : '') + (nocMode === 'cmd' ? ':' + step : '');
  if (key === meshKey) return;  // the whole run's, or the program's, map is the same at every step
  meshKey = key;
  const lb = scopeLinks(), busy = scopeBusy(), what = nocMode === 'run' ? 'the whole run' : nocMode === 'prog' ? 'program ' + P.id + ' (' + P.invocations + ' runs)' : 'command ' + step;
  $('meshwrap').dataset.scope = nocMode;
  let tot = 0; for (let i = 0; i < lb.length; i++) tot += lb[i] || 0;
  $('meshwrap').dataset.bytes = String(tot);
  let lmax = 0; for (const [i] of mesh.links) lmax = Math.max(lmax, lb[i] || 0);
  let bmax = 0, bsum = 0; for (let b = 0; b < C.banks; b++) { bmax = Math.max(bmax, busy[b]); bsum += busy[b]; }
  // only what changed is written: a step's map differs from the last one in a few links and banks
  const last = mesh.last || (mesh.last = {l: new Float64Array(mesh.links.length).fill(-1), b: new Float64Array(C.banks).fill(-1), lmax: -1, bmax: -1});
  const relink = lmax !== last.lmax, rebank = bmax !== last.bmax;
  mesh.links.forEach(([i, l, name], j) => {
    const v = lb[i] || 0;
    if (v === last.l[j] && !relink) return;
    last.l[j] = v;
    setAttr(l, 'stroke', v > 0 ? heat(lmax ? v / lmax : 0) : '#ddd'); setAttr(l, 'stroke-width', v > 0 ? '4' : '2');
    l.firstChild.textContent = 'link ' + name + ': ' + fmt(v) + ' bytes';
  });
  mesh.nodes.forEach((r, b) => {
    if (busy[b] === last.b[b] && !rebank) return;
    last.b[b] = busy[b];
    setAttr(r, 'fill', busyColor(bmax ? busy[b] / bmax : 0)); r.firstChild.textContent = 'bank ' + b + ': busy ' + fmt(busy[b]) + ' cycles';
    if (mesh.texts[b]) mesh.texts[b].textContent = compact(busy[b]);
  });
  if (relink || rebank) $('nocscale').innerHTML = scale('noc-links', 0, lmax, 'bytes', heat, 'links') + ' <span class="sub">(grey: none)</span><br>' + scale('noc-banks', 0, bmax, 'busy cycles', busyColor, 'banks');
  last.lmax = lmax; last.bmax = bmax;
  setHTML('nocinfo', what + ': ' + fmt(tot) + ' byte-hops on the links (busiest link ' + fmt(lmax) + ' bytes); bank busy up to ' + fmt(bmax) + ' cycles (mean ' + fmt(bsum / C.banks) + '); hover a link or a bank for its number.');
}

// ---- cycle breakdown (Fig. 14) ----
function bar(cyc, label) {
  const tot = CATS.reduce((a, k) => a + (cyc[k] || 0), 0) || 1; let x = 0, s = '';
  for (const k of CATS) { const w = 440 * (cyc[k] || 0) / tot; if (w > 0) s += '<rect x="' + (90 + x) + '" y="2" width="' + w + '" height="18" fill="' + CAT_COLORS[k] + '"><title>' + k + ': ' + fmt(cyc[k]) + '</title></rect>'; x += w; }
  return '<svg width="540" height="24"><text x="0" y="15" font-size="12">' + label + '</text>' + s + '</svg>';
}
function drawBreakdown() {
  const rc = D.run.cycles, pc = P ? P.cycles : {}, rt = D.run.total_cycles || 1, pt = CATS.reduce((a, k) => a + (pc[k] || 0), 0) || 1;
  let t = '<table><tr><th>category</th><th>run</th><th>share</th><th>program ' + (P ? P.id : '') + '</th></tr>';
  for (const k of CATS) t += '<tr><td><span class="sw" style="display:inline-block;width:10px;height:10px;background:' + CAT_COLORS[k] + '"></span> ' + k + '</td><td class="n">' + fmt(rc[k] || 0) + '</td><td class="n">' + (100 * (rc[k] || 0) / rt).toFixed(1) + '%</td><td class="n">' + fmt(pc[k] || 0) + '</td></tr>';
  t += '<tr><th>total</th><td class="n"><b>' + fmt(D.run.total_cycles) + '</b></td><td class="n">' + (D.run.total_cycles / (C.freq_ghz * 1e3)).toFixed(1) + ' µs</td><td class="n">' + fmt(pt) + '</td></tr></table>';
  $('breakdown').innerHTML = bar(rc, 'run') + (P ? bar(pc, 'program ' + P.id) : '') + t;
}
const WHERE = {in: 'in memory', near: 'near memory', core: 'on the cores'};
function drawRegions() {
  const rs = D.run.regions;
  $('regions').innerHTML = rs.length ? '<tr><th>region</th><th>ran</th><th>runs</th><th>cycles</th><th>why</th></tr>' + rs.map((g) => '<tr><td>' + g.region + '</td><td>' + (WHERE[g.mode] || esc(g.mode)) + '</td><td class="n">' + fmt(g.runs) + '</td><td class="n">' + fmt(g.cycles) + '</td><td>' + esc(g.reason) + '</td></tr>').join('')
    : '<tr><td class="sub">' + (D.programs.length ? 'the programs of a file of lowered pimcmd.programs, each run once' : 'no region ran') + '</td></tr>';
}

// ---- the command list (only the visible rows exist) ----
const ROW = 18, LIST_H = 300;  // (#list's CSS height)
function rowText(i) { const c = P.cmds[i]; return i + '  ' + c.k + (c.op ? ' ' + c.op : '') + (c.type ? ' ' + c.type : '') + (c.tiles ? '  tiles ' + patText(c.tiles) : '') + '  ' + fmt(P.cost.cycles[i]) + ' cyc'; }
let listRange = [-1, -1, -1];
function renderList(reset, follow) {
  const L = $('list');
  if (reset) { L.innerHTML = '<div id="spacer" style="height:' + P.cmds.length * ROW + 'px"></div>'; L.scrollTop = 0; listRange = [-1, -1, -1]; }
  const top = L.scrollTop, hgt = LIST_H;
  if (follow && (step * ROW < top || step * ROW > top + hgt - ROW)) L.scrollTop = Math.max(0, step * ROW - hgt / 2);
  const first = Math.max(0, Math.floor(L.scrollTop / ROW) - 5), last = Math.min(P.cmds.length, first + Math.ceil(hgt / ROW) + 10);
  if (listRange[0] === first && listRange[1] === last) {  // the same rows: only the current one changes
    if (listRange[2] !== step) for (const r of L.querySelectorAll('div.row')) r.className = 'row' + (+r.dataset.i === step ? ' cur' : '');
    listRange[2] = step; return;
  }
  for (const r of Array.from(L.querySelectorAll('div.row'))) r.remove();
  const frag = document.createDocumentFragment();
  for (let i = first; i < last; i++) { const d = document.createElement('div'); d.className = 'row' + (i === step ? ' cur' : ''); d.style.top = (i * ROW) + 'px'; d.textContent = rowText(i); d.dataset.i = i; frag.appendChild(d); }
  L.appendChild(frag);
  listRange = [first, last, step];
}

// ---- wiring ----
function clickAt(what, i) {  // a user's click on a bank or an array of the machine panel, at its centre
  const h = hits.find((x) => x[4] === what && x[5] === i);
  if (!h) { __report('error: click=' + what + ':' + i + ': no such ' + what + ' on the machine panel at zoom ' + zoom.level); return; }
  const cv = $('machine'), r = cv.getBoundingClientRect(), sx = r.width / cv.width, sy = r.height / cv.height;
  cv.dispatchEvent(new MouseEvent('click', {clientX: r.left + (h[0] + h[2] / 2) * sx, clientY: r.top + (h[1] + h[3] / 2) * sy, bubbles: true}));
}
function fromHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  const k = Math.max(0, Math.min(D.programs.length - 1, parseInt(h.get('prog') || '0', 10) || 0));
  const nm = h.get('noc');
  if (nm === 'run' || nm === 'prog' || nm === 'cmd') { nocMode = nm; for (const r of document.querySelectorAll('input[name=noc]')) r.checked = r.value === nm; }
  const mt = h.get('metric'); if (mt in METRICS) { metric = mt; $('metric').value = mt; }
  if (!P || P.id !== k) setProgram(k);
  const b = parseInt(h.get('bank'), 10), a = parseInt(h.get('array'), 10);
  zoom = b >= 0 && b < C.banks ? (a >= 0 && a < C.per_bank ? {level: 'array', bank: b, array: a} : {level: 'bank', bank: b, array: -1}) : {level: 'machine', bank: -1, array: -1};
  // a program on one bank's arrays opens on that bank (at machine scale it is a speck); #bank=-1 or a click keeps the machine
  if (!h.has('bank') && !h.has('click') && !opened) {
    const used = []; for (let i = 0; i < C.banks; i++) if (P.occ[i]) used.push(i);
    if (used.length === 1 && C.banks > 1) zoom = {level: 'bank', bank: used[0], array: -1};
  }
  opened = true;
  const lz = (h.get('lat') || '').split(',').map((x) => parseInt(x, 10));
  if (lz.length === 2 && lz.every((x) => x >= 0)) { const [R, Q] = P.lgrid, nr = Math.min(R, LZ), nc = Math.min(Q, LZ); lat = {r0: Math.max(0, Math.min(R - nr, lz[0] - (nr >> 1))), c0: Math.max(0, Math.min(Q - nc, lz[1] - (nc >> 1))), nr: nr, nc: nc}; P.L = null; }
  setStep(parseInt(h.get('step') || '0', 10) || 0);
}
function init() {
  const r = D.run;
  const where = (g) => g.region + ' ' + (WHERE[g.mode] || g.mode);
  $('summary').innerHTML = esc(D.title) + ' on <b>' + esc(C.name) + '</b>: ' + C.banks + ' banks (' + C.mesh_rows + 'x' + C.mesh_cols + ' mesh) x ' + C.per_bank + ' arrays x ' + C.bitlines + ' bitlines, ' + C.wordlines + ' wordlines; ' + fmt(r.total_cycles) + ' cycles; ' +
    D.programs.length + ' in-memory program(s)' + (D.omitted_programs.length ? ' shown of ' + (D.programs.length + D.omitted_programs.length) + ' (the others are listed with their totals only: ' + fmt(D.omitted_programs.reduce((a, p) => a + p.cycles, 0)) + ' cycles)' : '') + (r.regions.length ? '; regions: ' + r.regions.map(where).join(', ') : '');
  let notes = (r.notes || []).map((n) => '<div class="banner">' + esc(n) + '</div>').join('');
  if (r.replay_note) notes += '<div class="banner"><b>note:</b> ' + esc(r.replay_note) + '</div>';
  if (!D.programs.length) {
    const rs = r.shown_regions ? r.regions.filter((g) => r.shown_regions.includes(g.region)) : r.regions;  // (--region: those asked for)
    const why = rs.length ? 'no region' + (r.shown_regions ? ' of those shown' : '') + ' ran in memory: ' + rs.map((g) => 'region ' + g.region + ' ran ' + (WHERE[g.mode] || g.mode) + ' (' + g.reason + ')').join('; ') : 'no region ran in memory: the run offloaded nothing';
    notes += '<div class="banner" id="nomem"><b>' + esc(why) + '.</b> Only the run\'s totals are shown' + (rs.some((g) => g.mode !== 'in' && g.reason !== 'forced') ? '; <code>--mode in</code> runs them in memory where they can be.' : '.') + '</div>';
  }
  $('notes').innerHTML = notes;
  drawRegions();
  for (const p of D.programs) { const o = document.createElement('option'); o.value = String(p.id); o.textContent = p.id + ': region ' + p.regions.join(',') + ', ' + p.cmds.length + ' commands, ' + p.invocations + ' run(s)'; progSel.appendChild(o); }
  let pending = null;
  $('slider').addEventListener('input', (e) => { const v = +e.target.value; if (pending === null) requestAnimationFrame(() => { setStep(pending); pending = null; }); pending = v; });
  $('prev').onclick = () => setStep(step - 1); $('next').onclick = () => setStep(step + 1);
  progSel.onchange = () => { setProgram(+progSel.value); setStep(0); };
  document.addEventListener('keydown', (e) => { if (e.target.tagName === 'SELECT') return; if (e.key === 'ArrowRight') setStep(step + 1); if (e.key === 'ArrowLeft') setStep(step - 1); if (e.key === 'Escape') zoomOut(); });
  $('list').addEventListener('scroll', () => P && renderList(false, false));
  $('list').addEventListener('click', (e) => { const i = e.target.dataset && e.target.dataset.i; if (i !== undefined) setStep(+i); });
  for (const x of document.querySelectorAll('input[name=noc]')) x.addEventListener('change', (e) => { nocMode = e.target.value; if (P) { drawMachine(); drawMesh(); writeSel(); writeHash(); } });
  $('metric').addEventListener('change', (e) => { metric = e.target.value; drawMachine(); writeSel(); writeHash(); });
  $('machine').addEventListener('click', clickMachine);
  $('machine').addEventListener('mousemove', (e) => { $('mhover').textContent = describe(hitAt(e)); });
  $('crumbs').addEventListener('click', (e) => { const z = e.target.dataset && e.target.dataset.z; if (e.target.id === 'zout') zoomOut(); else if (z === 'machine') zoomTo('machine'); else if (z === 'bank') zoomTo('bank', zoom.bank); });
  $('lattice').addEventListener('click', (e) => { if (!P || lat) return; const rc = latHit(e); if (rc && P.lgrid[0] * P.lgrid[1] > LZ * LZ) latZoom(rc[0], rc[1]); });
  $('lattice').addEventListener('mousemove', (e) => {
    if (!P || !P.L) return; const rc = latHit(e); if (!rc) return; const t = rc[0] * P.lgrid[1] + rc[1]; if (t >= P.num_tiles) return;
    const names = P.arrays.filter((a, j) => j < 30 && (P.mask[t] >> j) & 1).map((a) => '%' + a.name);
    $('lathover').textContent = 'tile ' + t + ' (grid ' + unflat(t, P.grid).join(', ') + '): array ' + (t % C.per_bank) + ' of bank ' + Math.floor(t / C.per_bank) + '; ' + (names.join(', ') || 'no tensor') + (sel.st[t] || sel.dt[t] ? '; this command: ' + (sel.st[t] ? 'source' : '') + (sel.st[t] && sel.dt[t] ? ' and ' : '') + (sel.dt[t] ? 'destination' : '') : '');
  });
  $('latcrumbs').addEventListener('click', (e) => { if (e.target.dataset && e.target.dataset.lat === 'all') latZoom(null); });
  if (!D.programs.length) {
    $('steplabel').textContent = 'no program ran in memory: only the run\'s totals are shown';
    for (const e of [$('prev'), $('next'), $('slider'), progSel]) e.disabled = true;
    drawBreakdown(); drawMachine(); drawMesh();
    for (const x of document.querySelectorAll('input[name=noc]')) x.disabled = x.value !== 'run';
    $('sel').textContent = JSON.stringify({prog: null, step: null, why: $('nomem').textContent, machine: mstat});
  } else {
    // #bench=N: time N step redraws from the current one (the page's responsiveness, for tests and docs)
    const hp = new URLSearchParams(location.hash.slice(1)), nb = parseInt(hp.get('bench') || '0', 10);
    fromHash();
    // #click=...: each click as a user's; the machine panel's state before each is kept in #sel's "before_clicks"
    const before = [];
    for (const cl of (hp.get('click') || '').split(',').filter((x) => x)) { const [what, i] = cl.split(':'); before.push({zoom: Object.assign({}, zoom), machine: mstat}); clickAt(what, parseInt(i, 10)); }
    if (before.length) { lastInfo.before_clicks = before; writeSel(); }
    if (nb > 0) {
      // N redraws of the steps after this one (each step's layout included), then back where the URL said
      const s0 = step, times = [];
      for (const k in PARTS) PARTS[k] = 0;
      for (let i = 1; i <= nb; i++) { const t0 = performance.now(); setStep((s0 + i) % P.cmds.length); void document.body.offsetHeight; times.push(performance.now() - t0); }
      const parts = Object.fromEntries(Object.entries(PARTS).map(([k, v]) => [k, Math.round(100 * v / nb) / 100]));
      setStep(s0);
      times.sort((a, b) => a - b);
      Object.assign(lastInfo, {bench_ms: times.reduce((a, b) => a + b, 0) / nb, bench_max_ms: times[nb - 1], bench_median_ms: times[nb >> 1], bench_steps: nb,
        bench_parts: parts});
      writeSel();
    }
  }
  window.addEventListener('hashchange', fromHash);
  document.body.dataset.ready = '1';
}
try { init(); } catch (e) { __report('error: ' + (e && e.stack || e)); }
</script>
</body></html>
"""


def render(data: dict) -> str:
    """The page for ``data`` (``view_data``'s dict)."""
    text = json.dumps(data, separators=(",", ":"), allow_nan=False)
    # inside <script>: no "</script>", no "<!--" (JSON escapes keep the values)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    title = data.get("title") or "infs"
    safe = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # one pass: a title holding "__DATA__" (a file of that name) stays a title
    return re.sub("__TITLE__|__DATA__", lambda m: safe if m.group(0) == "__TITLE__" else text, PAGE)
