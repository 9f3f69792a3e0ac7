"""The HTML/JS of ``infs-view``'s page: one self-contained file (no network).

The data (``infs.runtime.view_data``) is embedded as JSON; the script expands
the commands' patterns itself and draws lazily: the machine and lattice
layers are drawn once per program, each step only redraws the highlights.
The page reports its own errors in ``#errors`` (and ``body[data-errors]``)
and describes the current step in ``#sel`` (JSON), so a headless browser's
``--dump-dom`` can check it.  ``#prog=K&step=N`` in the URL selects a step (``&noc=run|prog|cmd`` the
NoC map's scope, ``&bench=N`` times N steps into ``#sel``).
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
#controls input[type=range] { width: 420px; vertical-align: middle; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 10px; }
.panel { background: #fff; border: 1px solid #ddd; border-radius: 4px; padding: 8px; overflow: auto; }
canvas { image-rendering: pixelated; display: block; }
table { border-collapse: collapse; } td, th { padding: 1px 6px; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.legend span.sw { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin: 0 3px 0 8px; border: 1px solid #999; }
#list { height: 300px; overflow-y: auto; position: relative; font: 12px monospace; border: 1px solid #ddd; }
#list div.row { position: absolute; left: 0; right: 0; height: 18px; white-space: nowrap; padding-left: 4px; cursor: pointer; }
#list div.row.cur { background: #ffe9a8; }
#cmdinfo td:first-child { color: #555; } #cmdinfo code { font-size: 12px; }
#sel { display: none; }
</style></head>
<body>
<h1>infs-view: __TITLE__</h1>
<div class="sub" id="summary"></div>
<pre id="errors"></pre>
<div id="controls">
  program <select id="prog"></select>
  <button id="prev" title="previous command (left arrow)">&#9664;</button>
  <input type="range" id="slider" min="0" max="0" value="0">
  <button id="next" title="next command (right arrow)">&#9654;</button>
  <span id="steplabel"></span>
</div>
<div class="grid">
  <div class="panel"><h2>Machine: the mesh of banks, the arrays of each bank (one tile per array)</h2>
    <canvas id="machine"></canvas><div class="legend" id="legend"></div></div>
  <div class="panel"><h2>Lattice: the tile grid</h2><canvas id="lattice"></canvas>
    <div class="sub" id="latinfo"></div></div>
  <div class="panel"><h2>Command</h2><table id="cmdinfo"></table>
    <h2 style="margin-top:8px">Bitlines of every selected tile</h2><canvas id="tile"></canvas>
    <h2 style="margin-top:8px">Wordlines</h2><canvas id="wordlines"></canvas></div>
  <div class="panel"><h2>NoC: bytes per link, busy cycles per bank</h2>
    <label><input type="radio" name="noc" value="run" checked> whole run</label>
    <label><input type="radio" name="noc" value="prog"> this program</label>
    <label><input type="radio" name="noc" value="cmd"> this command</label>
    <div id="meshwrap"></div><div class="sub" id="nocinfo"></div></div>
  <div class="panel"><h2>Cycles (Fig. 14 breakdown)</h2><div id="breakdown"></div></div>
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

// ---- patterns and moves (mirrors infs/sim/geometry.py) ----
function expand(p) {
  let out = [p[0]];
  for (const [stride, count] of p[1]) {
    const n = new Array(out.length * count); let j = 0;
    for (let k = 0; k < count; k++) for (const x of out) n[j++] = x + k * stride;
    out = n;
  }
  return out;
}
function patText(p) { return p ? String(p[0]) + p[1].map(([s, c]) => ':' + s + ':' + c).join('') : ''; }
const stride = (shape, d) => prod(shape.slice(d + 1));
const coord = (i, shape, d) => Math.floor(i / stride(shape, d)) % shape[d];

function selection(P, c) {
  // src/dst flags over the program's tiles and a tile's bitlines
  const nt = P.num_tiles, B = prod(P.tiles);
  const sel = {st: new Uint8Array(nt), dt: new Uint8Array(nt), sb: new Uint8Array(B), db: new Uint8Array(B), note: ''};
  if (c.k === 'transpose_in' || c.k === 'release' || c.k === 'array') {
    const j = P.arrays.findIndex((a) => a.arr === c.arr);
    // the array's tiles and every bitline of them (an edge tile holds part of the array)
    if (c.k !== 'array' && j >= 0 && j < 30) { for (let t = 0; t < nt; t++) if ((P.mask[t] >> j) & 1) (c.k === 'release' ? sel.st : sel.dt)[t] = 1; (c.k === 'release' ? sel.sb : sel.db).fill(1); }
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

// ---- layout of the pictures ----
function grid2(shape) {  // rows x cols of a tile grid / a tile drawn flat
  if (shape.length >= 2) return [prod(shape.slice(0, -1)), shape[shape.length - 1]];
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
const GAP = 3;
const CELL = Math.max(1, Math.floor((540 - (C.mesh_cols + 1) * GAP) / (C.mesh_cols * BC)));
function tileXY(t) {
  const bank = Math.floor(t / C.per_bank), a = t % C.per_bank;
  const bx = bank % C.mesh_cols, by = Math.floor(bank / C.mesh_cols);
  return [GAP + bx * (BC * CELL + GAP) + (a % BC) * CELL, GAP + by * (BR * CELL + GAP) + Math.floor(a / BC) * CELL];
}
function colorsOf(m) { const out = []; for (let j = 0; j < 30 && m >> j; j++) if ((m >> j) & 1) out.push(PALETTE[j % PALETTE.length]); return out; }
function fillCell(ctx, x, y, w, h, cols) {
  if (!cols.length) { ctx.fillStyle = IDLE; ctx.fillRect(x, y, w, h); return; }
  if (cols.length === 1 || w < cols.length) { ctx.fillStyle = cols[0]; ctx.fillRect(x, y, w, h); return; }
  const sw = w / cols.length;  // one vertical stripe per array living on the tile
  cols.forEach((col, i) => { ctx.fillStyle = col; ctx.fillRect(x + Math.floor(i * sw), y, Math.ceil(sw), h); });
}

// ---- state ----
let P = null, base = null, latBase = null, step = 0, nocMode = 'run', drawn = {machine: 0, lattice: 0};
const progSel = $('prog');

function unrle(r, n) { const m = new Int32Array(n); let i = 0; for (let k = 0; k < r.length; k += 2) { m.fill(r[k], i, i + r[k + 1]); i += r[k + 1]; } return m; }

function setProgram(k) {
  P = D.programs[k]; if (!P) return;
  if (!P.mask) P.mask = unrle(P.tile_arrays, P.num_tiles);
  P.dim = null;
  progSel.value = String(k);
  $('slider').max = String(Math.max(0, P.cmds.length - 1));
  // the machine's base layer: every array coloured by the tensors on its tile
  const W = GAP + C.mesh_cols * (BC * CELL + GAP), H = GAP + C.mesh_rows * (BR * CELL + GAP);
  base = document.createElement('canvas'); base.width = W; base.height = H;
  const ctx = base.getContext('2d');
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, W, H);
  for (let b = 0; b < C.banks; b++) {
    const bx = b % C.mesh_cols, by = Math.floor(b / C.mesh_cols);
    ctx.strokeStyle = '#9a9a9a'; ctx.lineWidth = 1; ctx.strokeRect(GAP + bx * (BC * CELL + GAP) - 1.5, GAP + by * (BR * CELL + GAP) - 1.5, BC * CELL + 3, BR * CELL + 3);
    ctx.fillStyle = EMPTY;
    for (let a = 0; a < C.per_bank; a++) { const [x, y] = tileXY(b * C.per_bank + a); ctx.fillRect(x, y, CELL, CELL); }
  }
  let n = 0;
  for (let t = 0; t < P.num_tiles; t++) { const [x, y] = tileXY(t); fillCell(ctx, x, y, CELL, CELL, colorsOf(P.mask[t])); n++; }
  drawn.machine = n;
  const mc = $('machine'); mc.width = W; mc.height = H;
  // the lattice's tile grid
  const [lr, lc] = grid2(P.grid), lcell = Math.max(1, Math.floor(420 / Math.max(lr, lc)));
  latBase = document.createElement('canvas'); latBase.width = lc * lcell; latBase.height = lr * lcell;
  const lx = latBase.getContext('2d'); n = 0;
  for (let t = 0; t < P.num_tiles; t++) { fillCell(lx, (t % lc) * lcell, Math.floor(t / lc) * lcell, lcell, lcell, colorsOf(P.mask[t])); n++; }
  drawn.lattice = n; P.lgeom = [lr, lc, lcell];
  const lcv = $('lattice'); lcv.width = latBase.width; lcv.height = latBase.height;
  $('latinfo').textContent = 'lattice ' + P.lattice.join(' x ') + ', tiles ' + P.tiles.join(' x ') + ' (' + prod(P.tiles) + ' bitlines), grid ' + P.grid.join(' x ') + ' = ' + fmt(P.num_tiles) + ' tiles on ' + fmt(Math.ceil(P.num_tiles / C.per_bank)) + ' of ' + C.banks + ' banks';
  $('legend').innerHTML = P.arrays.map((a, j) => '<span class="sw" style="background:' + PALETTE[j % PALETTE.length] + '"></span>%' + esc(a.name) + ' ' + a.shape.join('x') + ' ' + a.element + ' @wl ' + a.wordline) .join('') +
    '<br><span class="sw" style="background:' + SRC + '"></span>source <span class="sw" style="background:' + DST + '"></span>destination <span class="sw" style="background:' + BOTH + '"></span>both <span class="sw" style="background:' + IDLE + '"></span>no tensor <span class="sw" style="background:' + EMPTY + '"></span>unused array';
  renderList(true);
  drawBreakdown();
}
function esc(s) { return String(s).replace(/[&<>"]/g, (ch) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'})[ch]); }

// the highlights are painted into pixel buffers: a step costs a copy of the
// dimmed base layer plus the selected tiles' pixels (no canvas call per tile)
function packed(hex) { const v = parseInt(hex.slice(1), 16); return (0xff000000 | ((v & 255) << 16) | (v & 0xff00) | (v >> 16)) >>> 0; }
const PSRC = packed(SRC), PDST = packed(DST), PBOTH = packed(BOTH);
function dimmed(canvas) {
  const img = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height), px = img.data;
  for (let i = 0; i < px.length; i += 4) for (let k = 0; k < 3; k++) px[i + k] = px[i + k] + ((255 - px[i + k]) * 0.55) | 0;
  return img;
}
function overlay(cv, dim, sel, pos, w) {
  const out = new ImageData(dim.width, dim.height), o = new Uint32Array(out.data.buffer), W = dim.width;
  o.set(new Uint32Array(dim.data.buffer));
  for (let t = 0; t < sel.st.length; t++) {
    if (!sel.st[t] && !sel.dt[t]) continue;
    const [x, y] = pos(t), col = sel.st[t] && sel.dt[t] ? PBOTH : sel.st[t] ? PSRC : PDST;
    for (let dy = 0; dy < w; dy++) { const r = (y + dy) * W + x; o.fill(col, r, r + w); }
  }
  cv.getContext('2d').putImageData(out, 0, 0);
}

function setStep(s) {
  if (!P) return;
  const t0 = performance.now();
  step = Math.max(0, Math.min(P.cmds.length - 1, s | 0));
  const c = P.cmds[step], sel = selection(P, c);
  $('slider').value = String(step);
  $('steplabel').textContent = 'command ' + step + ' / ' + (P.cmds.length - 1) + ': ' + c.k + (c.op ? ' ' + c.op : '');
  if (!P.dim) P.dim = [dimmed(base), dimmed(latBase)];
  overlay($('machine'), P.dim[0], sel, tileXY, CELL);
  const [lr, lc, lcell] = P.lgeom;
  overlay($('lattice'), P.dim[1], sel, (t) => [(t % lc) * lcell, Math.floor(t / lc) * lcell], lcell);
  drawTile(c, sel); drawWordlines(c); cmdInfo(c, sel); drawMesh(); renderList(false, true);
  const info = {prog: P.id, step: step, kind: c.k, src_tiles: count(sel.st), dst_tiles: count(sel.dt), src_bitlines: count(sel.sb), dst_bitlines: count(sel.db),
    first_src_bitlines: Array.from(sel.sb.keys()).filter((i) => sel.sb[i]).slice(0, 16), machine_cells: drawn.machine, lattice_cells: drawn.lattice, step_ms: 0, load_ms: 0};
  info.step_ms = Math.round(performance.now() - t0); info.load_ms = Math.round(performance.now() - T0);
  $('sel').textContent = JSON.stringify(info);
  document.body.dataset.step = String(step);
  const h = '#prog=' + P.id + '&step=' + step + (nocMode !== 'run' ? '&noc=' + nocMode : '');
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
  ctx.font = '10px sans-serif';
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
  $('cmdinfo').innerHTML = rows.map(([k, v]) => '<tr><td>' + k + '</td><td>' + v + '</td></tr>').join('');
}

// ---- NoC heat map (SVG) ----
const SP = Math.max(18, Math.min(60, Math.floor(520 / Math.max(C.mesh_rows, C.mesh_cols)))), NS = Math.floor(SP * 0.45);
const svgNS = 'http://www.w3.org/2000/svg';
let mesh = null;
function heat(x) {
  const st = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  x = Math.max(0, Math.min(1, x)) * (st.length - 1); const i = Math.min(st.length - 2, Math.floor(x)), f = x - i;
  return 'rgb(' + st[i].map((v, k) => Math.round(v + f * (st[i + 1][k] - v))).join(',') + ')';
}
function busyColor(x) { x = Math.max(0, Math.min(1, x)); return 'rgb(' + [255, Math.round(255 - 120 * x), Math.round(255 - 235 * x)].join(',') + ')'; }
function buildMesh() {
  const R = C.mesh_rows, Q = C.mesh_cols, svg = document.createElementNS(svgNS, 'svg');
  svg.setAttribute('width', Q * SP + 20); svg.setAttribute('height', R * SP + 20); svg.id = 'mesh';
  const links = [], nodes = [];
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
  }
  $('meshwrap').appendChild(svg);
  mesh = {links, nodes};
}
function drawMesh() {
  if (!mesh) buildMesh();
  let lb, busy, what;
  if (nocMode === 'run') { lb = D.run.link_bytes; busy = D.run.bank_busy; what = 'the whole run'; }
  else if (nocMode === 'prog') { lb = P.link_bytes || []; busy = P.bank_busy; what = 'program ' + P.id + ' (' + P.invocations + ' runs)'; }
  else {
    lb = new Array(4 * C.banks).fill(0); for (const [i, v] of (P.links[String(step)] || [])) lb[i] = v;
    const c = P.cmds[step]; busy = new Array(C.banks).fill(0);
    const sel = selection(P, c), cyc = P.cost.cycles[step];
    if (c.banks) for (const b of expand(c.banks)) busy[b] = cyc; else for (let t = 0; t < sel.st.length; t++) if (sel.st[t] || sel.dt[t]) busy[Math.floor(t / C.per_bank)] = cyc;
    what = 'command ' + step;
  }
  $('meshwrap').dataset.scope = nocMode; $('meshwrap').dataset.bytes = String(lb.reduce((a, b) => a + (b || 0), 0));
  const lmax = Math.max(0, ...mesh.links.map(([i]) => lb[i] || 0)), bmax = Math.max(0, ...busy);
  for (const [i, l, name] of mesh.links) {
    const v = lb[i] || 0;
    l.setAttribute('stroke', v > 0 ? heat(lmax ? v / lmax : 0) : '#ddd'); l.setAttribute('stroke-width', v > 0 ? 4 : 2);
    l.firstChild.textContent = 'link ' + name + ': ' + fmt(v) + ' bytes';
  }
  mesh.nodes.forEach((r, b) => { r.setAttribute('fill', busyColor(bmax ? busy[b] / bmax : 0)); r.firstChild.textContent = 'bank ' + b + ': busy ' + fmt(busy[b]) + ' cycles'; });
  const tot = lb.reduce((a, b) => a + (b || 0), 0);
  $('nocinfo').innerHTML = what + ': ' + fmt(tot) + ' byte-hops on the links (busiest link ' + fmt(lmax) + ' bytes); bank busy up to ' + fmt(bmax) + ' cycles (mean ' + fmt(busy.reduce((a, b) => a + b, 0) / C.banks) + ').<br>Links: colour = bytes (dark: few, yellow: most; grey: none); banks: white idle to orange busiest.';
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

// ---- the command list (only the visible rows exist) ----
const ROW = 18;
function rowText(i) { const c = P.cmds[i]; return i + '  ' + c.k + (c.op ? ' ' + c.op : '') + (c.type ? ' ' + c.type : '') + (c.tiles ? '  tiles ' + patText(c.tiles) : '') + '  ' + fmt(P.cost.cycles[i]) + ' cyc'; }
function renderList(reset, follow) {
  const L = $('list');
  if (reset) { L.innerHTML = '<div id="spacer" style="height:' + P.cmds.length * ROW + 'px"></div>'; L.scrollTop = 0; }
  const top = L.scrollTop;
  if (follow && (step * ROW < top || step * ROW > top + L.clientHeight - ROW)) L.scrollTop = Math.max(0, step * ROW - L.clientHeight / 2);
  const first = Math.max(0, Math.floor(L.scrollTop / ROW) - 5), last = Math.min(P.cmds.length, first + Math.ceil((L.clientHeight || 300) / ROW) + 10);
  for (const r of Array.from(L.querySelectorAll('div.row'))) r.remove();
  const frag = document.createDocumentFragment();
  for (let i = first; i < last; i++) { const d = document.createElement('div'); d.className = 'row' + (i === step ? ' cur' : ''); d.style.top = (i * ROW) + 'px'; d.textContent = rowText(i); d.dataset.i = i; frag.appendChild(d); }
  L.appendChild(frag);
}

// ---- wiring ----
function fromHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  const k = Math.max(0, Math.min(D.programs.length - 1, parseInt(h.get('prog') || '0', 10) || 0));
  const nm = h.get('noc');
  if (nm === 'run' || nm === 'prog' || nm === 'cmd') { nocMode = nm; for (const r of document.querySelectorAll('input[name=noc]')) r.checked = r.value === nm; }
  if (!P || P.id !== k) setProgram(k);
  setStep(parseInt(h.get('step') || '0', 10) || 0);
}
function init() {
  const r = D.run;
  $('summary').innerHTML = esc(D.title) + ' on <b>' + esc(C.name) + '</b>: ' + C.banks + ' banks (' + C.mesh_rows + 'x' + C.mesh_cols + ' mesh) x ' + C.per_bank + ' arrays x ' + C.bitlines + ' bitlines, ' + C.wordlines + ' wordlines; ' + fmt(r.total_cycles) + ' cycles; ' + D.programs.length + ' in-memory program(s)' + (D.omitted_programs.length ? ' (+' + D.omitted_programs.length + ' not embedded: more than ' + D.programs.length + ' distinct programs)' : '') + (r.regions.length ? '; regions: ' + r.regions.map((g) => g.region + ' ' + g.mode).join(', ') : '');
  if (r.replay_note) $('summary').innerHTML += '<br><b>note:</b> ' + esc(r.replay_note);
  for (const p of D.programs) { const o = document.createElement('option'); o.value = String(p.id); o.textContent = p.id + ': region ' + p.regions.join(',') + ', ' + p.cmds.length + ' commands, ' + p.invocations + ' run(s)'; progSel.appendChild(o); }
  if (!D.programs.length) {
    $('steplabel').textContent = 'no program ran in memory: only the run\'s totals are shown';
    drawBreakdown(); drawMesh();
    for (const r of document.querySelectorAll('input[name=noc]')) r.disabled = r.value !== 'run';
    $('sel').textContent = JSON.stringify({prog: null, step: null});
  } else {
    // #bench=N: time N steps from the current one (the page's responsiveness, for tests)
    const nb = parseInt(new URLSearchParams(location.hash.slice(1)).get('bench') || '0', 10);
    fromHash();
    if (nb > 0) {
      const s0 = step, t0 = performance.now();
      for (let i = 1; i <= nb; i++) setStep((s0 + i) % P.cmds.length);
      const ms = (performance.now() - t0) / nb;
      setStep(s0);  // back where the URL said
      const info = JSON.parse($('sel').textContent); info.bench_ms = ms; info.bench_steps = nb; $('sel').textContent = JSON.stringify(info);
    }
  }
  let pending = null;
  $('slider').addEventListener('input', (e) => { const v = +e.target.value; if (pending === null) requestAnimationFrame(() => { setStep(pending); pending = null; }); pending = v; });
  $('prev').onclick = () => setStep(step - 1); $('next').onclick = () => setStep(step + 1);
  progSel.onchange = () => { setProgram(+progSel.value); setStep(0); };
  document.addEventListener('keydown', (e) => { if (e.target.tagName === 'SELECT') return; if (e.key === 'ArrowRight') setStep(step + 1); if (e.key === 'ArrowLeft') setStep(step - 1); });
  $('list').addEventListener('scroll', () => P && renderList(false, false));
  $('list').addEventListener('click', (e) => { const i = e.target.dataset && e.target.dataset.i; if (i !== undefined) setStep(+i); });
  for (const r of document.querySelectorAll('input[name=noc]')) r.addEventListener('change', (e) => { nocMode = e.target.value; if (P) drawMesh(); });
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
