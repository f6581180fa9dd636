// Token ring lab: the page around libtokenring compiled to WebAssembly.
//
// Everything semantic (tokens, ranges, owners, replicas, widths, shares, movement) comes
// from the library through lab/glue.c as JSON with exact integers as decimal strings. This
// file only draws and lays out those answers. BigInt is used to check and display the
// integers and to place dots on the canvas (a visual approximation).

const TWO64 = 2n ** 64n;
const MIN_TOKEN = -(2n ** 63n);
const STAGES = [
  { name: 'Hashing', from: 0, to: 20 },
  { name: 'Primary selection', from: 20, to: 40 },
  { name: 'Replica selection', from: 40, to: 60 },
];
const T_END = 60;

// Node colours: hues a golden angle (137.5°) apart, so every next node lands in the widest
// gap left, with five lightness and two saturation steps; never a repeat (a clash after
// rounding to 8-bit RGB is nudged lighter). Names in the legend, the badges' numbers and the
// tables carry the same information, so colour is never the only cue.
function hslHex(h, s, l) {
  const k = (n) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return `#${[f(0), f(8), f(4)].map((x) => Math.round(x * 255).toString(16).padStart(2, '0')).join('')}`;
}

const palette = [];
const paletteSeen = new Set();
function colourOf(node) {
  while (palette.length <= node) {
    const i = palette.length;
    const h = (205 + i * 137.50776405) % 360;
    const s = [0.75, 0.6][Math.floor(i / 5) % 2];
    let l = [0.42, 0.56, 0.34, 0.49, 0.62][i % 5];
    let c = hslHex(h, s, l);
    while (paletteSeen.has(c)) { l += 0.004; c = hslHex(h, s, l); }
    paletteSeen.add(c);
    palette.push(c);
  }
  return palette[node];
}

// Black or white text, whichever reads better on colour c (#rrggbb).
function inkOn(c) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(c.substr(i, 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.22 ? '#111' : '#fff';
}

// ------------------------------------------------------------------ the wasm module

class Lab {
  static async load(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`could not fetch ${url}: HTTP ${response.status}`);
    const bytes = await response.arrayBuffer();
    const lab = new Lab();
    const { instance } = await WebAssembly.instantiate(bytes, lab.imports());
    lab.exports = instance.exports;
    lab.exports._initialize();
    return lab;
  }

  // The library needs no operating system; wasi-libc references a few WASI calls (stdio,
  // getenv). They get an empty environment, no files (writes are discarded), a clock, and
  // ENOSYS for anything else.
  imports() {
    const ENOSYS = 52;
    const EBADF = 8;
    const self = this;
    const wasi = {
      fd_write(fd, iovs, iovsLen, nwritten) {
        const view = new DataView(self.exports.memory.buffer);
        let total = 0;
        for (let i = 0; i < iovsLen; i++) total += view.getUint32(iovs + 8 * i + 4, true);
        view.setUint32(nwritten, total, true);
        return 0;
      },
      fd_close() { return EBADF; },
      fd_seek() { return EBADF; },
      // An empty environment and argument list (getenv() then finds nothing).
      environ_sizes_get(countPtr, sizePtr) { return self.zeroPair(countPtr, sizePtr); },
      environ_get() { return 0; },
      args_sizes_get(countPtr, sizePtr) { return self.zeroPair(countPtr, sizePtr); },
      args_get() { return 0; },
      clock_time_get(id, precision, timePtr) {
        const ns = BigInt(Math.round((id === 0 ? Date.now() : performance.now()) * 1e6));
        new DataView(self.exports.memory.buffer).setBigUint64(timePtr, ns, true);
        return 0;
      },
      proc_exit(code) { throw new Error(`wasm exited with ${code}`); },
    };
    return {
      wasi_snapshot_preview1: new Proxy(wasi, {
        get: (target, name) => (name in target ? target[name] : () => ENOSYS),
      }),
    };
  }

  zeroPair(a, b) {
    const view = new DataView(this.exports.memory.buffer);
    view.setUint32(a, 0, true);
    view.setUint32(b, 0, true);
    return 0;
  }

  text(ptr) {
    const mem = new Uint8Array(this.exports.memory.buffer);
    let end = ptr;
    while (mem[end] !== 0) end++;
    return new TextDecoder().decode(mem.subarray(ptr, end));
  }

  json(ptr) {
    return JSON.parse(this.text(ptr));
  }

  // Calls fn with (ptr, len) pairs for each byte array copied into wasm memory.
  withBytes(arrays, fn) {
    const ptrs = arrays.map((a) => {
      const p = this.exports.lab_alloc(a.length);
      new Uint8Array(this.exports.memory.buffer, p, a.length).set(a);
      return p;
    });
    try {
      return fn(...ptrs.flatMap((p, i) => [p, arrays[i].length]));
    } finally {
      ptrs.forEach((p) => this.exports.lab_free(p));
    }
  }

  info() { return this.json(this.exports.lab_info()); }

  configure(c) {
    const repl = new TextEncoder().encode(c.replication);
    return this.withBytes([repl], (p, n) => this.json(
      this.exports.lab_configure(c.nodes, c.vnodes, c.seed >>> 0, c.dcs, c.racks, c.layout, p, n)));
  }

  routeBytes(bytes) {
    return this.withBytes([bytes], (p, n) => this.json(this.exports.lab_route_bytes(p, n)));
  }

  routeTyped(types, value) {
    const enc = new TextEncoder();
    return this.withBytes([enc.encode(types), enc.encode(value)],
      (tp, tn, vp, vn) => this.json(this.exports.lab_route_typed(tp, tn, vp, vn)));
  }

  compare(bytes, nodesAfter) {
    return this.withBytes([bytes], (p, n) => this.json(this.exports.lab_compare(p, n, nodesAfter)));
  }
}

// ------------------------------------------------------------------ helpers

const $ = (id) => document.getElementById(id);

function exact(s) {
  // An exact integer from the library, checked to be one and shown as is.
  const v = BigInt(s);
  if (v.toString() !== s) throw new Error(`not a canonical integer: ${s}`);
  return s;
}

function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}


function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function swatch(node) {
  const s = el('span', { class: 'swatch', 'aria-hidden': 'true' });
  s.style.background = colourOf(node);
  return s;
}

function stageOf(t) {
  if (t >= T_END) return 3;
  return STAGES.findIndex((s) => t >= s.from && t < s.to);
}

// Position of a token on the circle, as a fraction of a turn from the top (display only).
function turnOf(token) {
  return Number(BigInt(token) - MIN_TOKEN) / Number(TWO64);
}

// Every vnode's position, worked out once per ring (BigInt parsing is the slow part).
const turnCache = new WeakMap();
function ringTurns(r) {
  let turns = turnCache.get(r);
  if (!turns) {
    turns = Float64Array.from(r.ring, ([token]) => turnOf(token));
    turnCache.set(r, turns);
  }
  return turns;
}

// ------------------------------------------------------------------ the page

const state = {
  nodes: 6, vnodes: 8, seed: 1, dcs: 1, racks: 1, layout: 0, rf: 3,
  strategy: 'simple', dcRf: { dc1: 3, dc2: 3, dc3: 3 },
  typed: false, t: T_END, playing: false, speed: 1,
};
let lab;
let info;
let ring;     // lab_configure's answer
let route;    // the current key's route
let joinBefore = null;

function replicationText(s = state) {
  if (s.strategy === 'simple') return String(s.rf);
  const parts = [];
  for (let d = 1; d <= s.dcs; d++) parts.push(`dc${d}=${s.dcRf[`dc${d}`] ?? 0}`);
  return parts.join(',');
}

function setStatus(text, isError = false) {
  const st = $('status');
  st.textContent = text;
  st.classList.toggle('error', isError);
}

function configure(next) {
  const c = { ...state, ...next };
  const answer = lab.configure({ ...c, replication: replicationText(c) });
  if (!answer.ok) {
    setStatus(`The library refused this topology: ${answer.message} (${answer.code}).`, true);
    syncControls();
    return false;
  }
  Object.assign(state, next);
  ring = answer;
  setStatus(`Ring of ${ring.ring.length} vnodes on ${ring.nodes.length} nodes, replication `
    + `${ring.replication_cql}.`);
  syncControls();
  renderOwnership();
  return true;
}

function keyBytes() {
  if (route && route.ok) return hexToBytes(route.key_hex);
  return new TextEncoder().encode($('key').value);
}

function routeKey() {
  let answer;
  if (state.typed) {
    answer = lab.routeTyped($('types').value, $('typed-value').value);
    const err = $('typed-error');
    err.hidden = answer.ok;
    err.textContent = answer.ok ? '' : `${answer.message} (${answer.code})`;
    if (!answer.ok) return;
  } else {
    answer = lab.routeBytes(new TextEncoder().encode($('key').value));
    if (!answer.ok) {
      setStatus(`Routing failed: ${answer.message}`, true);
      return;
    }
  }
  route = answer;
  render();
}

// ---------------------------------------------------------------- controls

function syncControls() {
  $('nodes').value = state.nodes;
  $('vnodes').value = state.vnodes;
  $('seed').value = state.seed;
  $('rf').value = state.rf;
  $('rf').max = state.nodes;
  $('dcs').value = state.dcs;
  $('racks').value = state.racks;
  $('strategy').value = state.strategy;
  $('layout').value = state.layout;
  $('rf').disabled = state.strategy !== 'simple';
  const allocator = state.layout === 1;
  $('seed').disabled = allocator;
  $('next-seed').disabled = allocator;
  $('layout-rule').textContent = allocator
    ? 'Allocator layout: each datacenter\'s first nodes are planned together by the library\'s '
      + 'allocator (tokenring_allocate_nodes) for the replication factor; every node added '
      + 'afterwards is a join whose tokens tokenring_allocate_tokens chooses against the ring as '
      + 'it stands, keeping all existing tokens. The layout seed is not used.'
    : `Seeded layout, computed by the library: ${info.layout_rule}.`;
  const full = !fits(state.nodes + 1, state.vnodes, state.layout);
  $('add-node').disabled = full;
  $('join-add').disabled = full;
  $('size-limits').textContent = `${limitsText()}${full ? ` This ring is at the limit, so Add one `
    + 'node is off.' : ''}`;
  $('rf-note').textContent = state.strategy === 'simple'
    ? `At most ${state.nodes} (the node count): the walk picks distinct nodes, skipping further `
      + `vnodes of a node already chosen, so there are only ${state.nodes} to pick from.`
    : 'Replica counts are set per datacenter in the advanced panel.';
  $('typed-banner').hidden = !state.typed;
  $('key').setAttribute('aria-disabled', String(state.typed));
  renderDcRf();
  if (ring) $('repl-cql').textContent = ring.replication_cql;
}

function renderDcRf() {
  const box = $('dc-rf');
  box.hidden = state.strategy !== 'nts';
  box.replaceChildren();
  if (state.strategy !== 'nts' || !ring) return;
  for (let d = 1; d <= state.dcs; d++) {
    const dc = `dc${d}`;
    const inDc = ring.nodes.filter((n) => n.dc === dc).length;
    const input = el('input', { id: `rf-${dc}`, type: 'number', min: '0', max: '255',
      value: String(state.dcRf[dc] ?? 0), inputmode: 'numeric' });
    input.addEventListener('change', () => {
      const v = Math.max(0, Math.min(255, Number(input.value) | 0));
      const dcRf = { ...state.dcRf, [dc]: v };
      if (configure({ dcRf })) routeKey();
    });
    const more = (state.dcRf[dc] ?? 0) > inDc ? `: more than its ${inDc} nodes gives all of them` : '';
    box.append(el('label', { for: `rf-${dc}` }, `Replicas in ${dc} (${inDc} nodes there${more})`, input));
  }
}

// ---------------------------------------------------------------- size limits

// What the lab draws and computes in a tab without stalling it (the glue's limits, measured:
// see doc/lab.md). The allocator plans the whole cluster, so it has a lower vnode total.
function maxTokens(layout = state.layout) {
  return layout === 1 ? info.limits.allocator_tokens : info.limits.tokens;
}

function fits(nodes, vnodes, layout) {
  return nodes <= info.limits.nodes && vnodes <= info.limits.vnodes
    && nodes * vnodes <= maxTokens(layout);
}

function limitsText() {
  const l = info.limits;
  return `The lab draws and computes up to ${l.nodes} nodes and ${l.vnodes} vnodes per node, `
    + `${l.tokens} vnodes in all (${l.allocator_tokens} with the allocator layout, which plans `
    + 'the whole cluster).';
}

// Lowers (nodes, vnodes) to what the lab can do, lowering the one the user did not just
// change when only their product is too large, and says what it did.
function fitSize(nodes, vnodes, layout, changed) {
  const l = info.limits;
  const notes = [];
  if (nodes > l.nodes) {
    notes.push(`Nodes lowered from ${nodes} to ${l.nodes}: the lab draws and computes at most `
      + `${l.nodes} nodes.`);
    nodes = l.nodes;
  }
  if (vnodes > l.vnodes) {
    notes.push(`Vnodes per node lowered from ${vnodes} to ${l.vnodes}: the lab allows at most `
      + `${l.vnodes}.`);
    vnodes = l.vnodes;
  }
  const cap = maxTokens(layout);
  if (nodes * vnodes > cap) {
    const why = `${nodes} nodes × ${vnodes} vnodes would be ${nodes * vnodes} vnodes, and the lab `
      + `computes at most ${cap} in all${layout === 1 ? ' with the allocator layout' : ''}`;
    if (changed === 'vnodes') {
      const v = Math.floor(cap / nodes);
      notes.push(`Vnodes per node lowered from ${vnodes} to ${v}: ${why}.`);
      vnodes = v;
    } else {
      const n = Math.floor(cap / vnodes);
      notes.push(`Nodes lowered from ${nodes} to ${n}: ${why}. Fewer vnodes per node allow more `
        + 'nodes.');
      nodes = n;
    }
  }
  return { nodes, vnodes, note: notes.join(' ') };
}

function showLimitNote(note) {
  $('limit-note').hidden = !note;
  $('limit-note').textContent = note;
}

function numberFrom(id, lo, hi) {
  const v = Math.trunc(Number($(id).value));
  if (!Number.isFinite(v)) return null;
  return Math.max(lo, Math.min(hi, v));
}

function onTopologyInput(event) {
  const changed = event && event.target ? event.target.id : '';
  const size = fitSize(numberFrom('nodes', 1, Infinity) ?? state.nodes,
    numberFrom('vnodes', 1, Infinity) ?? state.vnodes, state.layout, changed);
  const { nodes, vnodes } = size;
  const seed = numberFrom('seed', 0, 4294967295) ?? state.seed;
  let rf = numberFrom('rf', 1, 255) ?? state.rf;
  let note = size.note;
  if (rf > nodes) {
    note = `${note ? `${note} ` : ''}Replica count lowered to ${nodes}: it cannot exceed the number `
      + 'of nodes.';
    rf = nodes;
  }
  if (configure({ nodes, vnodes, seed, rf })) {
    routeKey();
    if (note) setStatus(note);
  }
  showLimitNote(size.note);
}

function addNode() {
  const before = route;
  const cmp = lab.compare(keyBytes(), state.nodes + 1);
  if (!cmp.ok) {
    setStatus(`Could not add a node: ${cmp.message}`, true);
    return;
  }
  if (!configure({ nodes: state.nodes + 1 })) return;
  routeKey();
  renderJoin(cmp, before);
}

function joinSetup() {
  const ok = configure({ nodes: 6, vnodes: 8, seed: 1, layout: 0,
    rf: Math.min(state.rf, 6) });
  if (!ok) return;
  routeKey();
  joinBefore = route;
  $('join-before').textContent = `Recorded: token ${route.token}, primary ${route.range.owner_name}`
    + ` (range (${route.range.start}, ${route.range.end}]). Now predict, then add a node.`;
  $('join-result').replaceChildren();
  $('movement').textContent = 'Add a node to count how many of the 200 fixed sample keys change '
    + 'primary.';
  $('moved-details').hidden = true;
  for (const r of document.querySelectorAll('input[name=predict]')) r.checked = false;
}

// ---------------------------------------------------------------- rendering

function render() {
  renderInspector();
  renderLegend();
  renderPlayback();
  draw();
}

function setHidden(id, hidden) { $(id).hidden = hidden; }

function renderInspector() {
  const stage = stageOf(state.t);
  const showToken = state.t >= 10 || stage === 3;
  const showPrimary = state.t >= 30 || stage === 3;
  const pending = '…';
  $('i-bytes').textContent = route.key_hex === '' ? '(no bytes)' : route.key_hex;
  $('i-len').textContent = `${route.key_len} byte${route.key_len === 1 ? '' : 's'}`;
  $('i-token').textContent = showToken ? exact(route.token) : pending;
  setHidden('i-sentinel', !(showToken && route.empty_key));
  $('i-owner-token').textContent = showPrimary ? exact(route.range.end) : pending;
  const owner = $('i-owner');
  owner.replaceChildren();
  if (showPrimary) owner.append(swatch(route.range.owner), route.range.owner_name);
  $('i-start').textContent = showPrimary ? exact(route.range.start) : pending;
  $('i-end').textContent = showPrimary ? exact(route.range.end) : pending;
  $('i-width').textContent = showPrimary ? exact(route.range.width) : pending;
  $('i-width-pct').textContent = showPrimary ? route.range.width_pct : pending;
  setHidden('i-wraps', !(showPrimary && route.range.wraps));

  const tbody = $('replicas').tBodies[0];
  tbody.replaceChildren();
  route.replicas.forEach((r) => {
    const visible = replicaShown(r);
    const tr = el('tr', { 'data-node': r.name });
    tr.append(
      el('td', { text: String(r.order) }),
      el('td', {}, visible ? swatch(r.node) : '', visible ? r.name : pending),
      el('td', { text: visible ? `${r.dc} / ${r.rack}${r.transient ? ' (transient)' : ''}` : pending }),
      el('td', {}, el('code', { text: visible ? exact(r.via_token) : pending })),
      el('td', { text: visible ? String(r.steps) : pending }),
    );
    tbody.append(tr);
  });
  if (route.replicas.length === 0) {
    tbody.append(el('tr', {}, el('td', { colspan: '5', text: 'No replicas: the replication '
      + 'places none for this range.' })));
  }
  renderWalk(showPrimary);
  const st = stage === 3 ? 'Complete: every stage shown.'
    : `Stage ${stage + 1} of 3: ${STAGES[stage].name}.`;
  if ($('stage-line').textContent !== st) $('stage-line').textContent = st;
}

// The vnodes the replica walk visits, from the owning vnode to the last replica's, each
// with what the walk did there (read off the library's replicas; at most 24 shown).
function renderWalk(showPrimary) {
  const ol = $('walk');
  ol.replaceChildren();
  if (!showPrimary) {
    ol.append(el('li', { class: 'pending', text: 'Revealed in the primary selection stage.' }));
    return;
  }
  const ntok = ring.ring.length;
  const walked = state.t >= 40 ? walkedSteps() : 0;
  const byIndex = new Map(route.replicas.map((r) => [r.via_index, r]));
  const chosenBefore = (node, step) => route.replicas.some((r) => r.node === node && r.steps < step);
  ol.append(el('li', { class: 'key-item' }, el('span', { class: 'walk-node', text: 'key' }), ' ',
    el('code', { text: route.token }), ' ',
    el('span', { class: 'walk-what', text: 'the key\'s token; the first vnode at or after it owns it' })));
  const limit = 24;
  for (let step = 0; step < route.walk_len; step++) {
    if (step > walked + 1e-9) break;
    if (route.walk_len > limit && step === limit - 4) {
      const skip = route.walk_len - limit;
      ol.append(el('li', { class: 'gap', text: `… ${skip} more vnodes …` }));
      step += skip - 1;
      continue;
    }
    const idx = (route.range.index + step) % ntok;
    const [token, node] = ring.ring[idx];
    const r = byIndex.get(idx);
    let what;
    if (r) what = r.order === 1 ? 'primary replica (owns the range)' : `replica ${r.order}`;
    else if (chosenBefore(node, step)) what = 'skipped: node already chosen';
    else what = 'not chosen (its datacenter or rack is already covered)';
    const li = el('li', { class: r ? 'chosen' : 'skipped' }, swatch(node),
      el('span', { class: 'walk-node', text: ring.nodes[node].name }), ' ',
      el('code', { text: token }), ' ', el('span', { class: 'walk-what', text: what }));
    ol.append(li);
  }
}

// How far (in vnodes past the owner) the replica walk has gone at time t: it starts at 40 s
// and reaches the last replica at 55 s.
function walkedSteps() {
  const last = Math.max(0, route.walk_len - 1);
  if (state.t >= T_END) return last;
  return Math.min(1, Math.max(0, (state.t - 40) / 15)) * last;
}

// Whether the replica-selection stage has revealed replica r at time t.
function replicaShown(r) {
  if (state.t >= T_END) return true;
  if (state.t < 40) return false;
  return r.steps <= walkedSteps() + 1e-9;
}

let legendDrawn = { ring: null, sig: '' };

function renderLegend() {
  const ul = $('legend');
  const shown = route.replicas.filter(replicaShown);
  const sig = shown.map((r) => `${r.node}:${r.order}`).join(',');
  if (legendDrawn.ring !== ring || legendDrawn.sig !== sig) {
    // rebuilt only when the ring or the replicas shown change (not on every playback frame)
    legendDrawn = { ring, sig };
    ul.replaceChildren();
    const many = ring.nodes.length > 12;
    ul.classList.toggle('many', many);
    const order = new Map(shown.map((r) => [r.node, r.order]));
    // a long legend scrolls: then the replicas come first, in replica order, so they are
    // always in view by name
    const listed = many
      ? [...shown.map((r) => ring.nodes[r.node]), ...ring.nodes.filter((n) => !order.has(n.index))]
      : ring.nodes;
    for (const n of listed) {
      const li = el('li', { 'data-node': n.name }, swatch(n.index), `${n.name}`);
      if (state.dcs > 1 || state.racks > 1) li.append(el('span', { class: 'muted', text: ` ${n.dc}/${n.rack}` }));
      if (order.has(n.index)) {
        li.append(el('span', { class: 'tag', text: `replica ${order.get(n.index)}` }));
      }
      ul.append(li);
    }
  }
  const owner = route.range.owner_name;
  const names = route.replicas.map((r) => r.name).join(', ');
  $('ring').setAttribute('aria-label', `Token ring with ${ring.ring.length} vnodes on `
    + `${ring.nodes.length} nodes. The key's token ${route.token} falls in the range owned by `
    + `${owner}; replicas in order: ${names || 'none'}.`);
}

function renderOwnership() {
  const tbody = $('own-table').tBodies[0];
  tbody.replaceChildren();
  let sumPrimary = 0n;
  for (const o of ring.ownership) {
    const n = ring.nodes[o.node];
    sumPrimary += BigInt(o.primary_width);
    tbody.append(el('tr', { 'data-node': o.name },
      el('th', { scope: 'row' }, swatch(o.node), o.name),
      el('td', { class: 'num-cell', 'data-label': 'Primary', text: `${o.primary_pct} %` }),
      el('td', { class: 'num-cell', 'data-label': 'Effective', text: `${o.effective_pct} %` }),
      el('td', { 'data-label': 'Primary width' }, el('code', { text: exact(o.primary_width) })),
      el('td', { 'data-label': 'Effective width' }, el('code', { text: exact(o.effective_width) })),
      el('td', { 'data-label': 'Vnodes', text: String(o.vnodes) }),
      el('td', { 'data-label': 'DC / rack', text: `${n.dc} / ${n.rack}` }),
    ));
  }
  const foot = $('own-table').tFoot;
  foot.replaceChildren(el('tr', {},
    el('th', { scope: 'row', text: 'Total' }),
    el('td', { 'data-label': 'Primary', text: sumPrimary === TWO64 ? '100 %' : '≠ 100 %' }), el('td'),
    el('td', { 'data-label': 'Primary width' }, el('code', { text: sumPrimary.toString() }),
      sumPrimary === TWO64 ? ' = 2⁶⁴, the whole ring' : ' does not sum to 2⁶⁴!'),
    el('td'), el('td', { 'data-label': 'Vnodes', text: String(ring.ring.length) }), el('td')));

  const tt = $('token-table').tBodies[0];
  tt.replaceChildren();
  for (const n of ring.nodes) {
    tt.append(el('tr', { 'data-node': n.name },
      el('th', { scope: 'row' }, swatch(n.index), n.name),
      el('td', { class: 'tokens' }, el('code', { text: n.tokens.map(exact).join(' ') }))));
  }
}

function renderJoin(cmp, before) {
  const b = cmp.before;
  const a = cmp.after;
  const box = $('join-result');
  box.replaceChildren();
  const table = el('table', { class: 'compare' });
  table.append(el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: '' }),
    el('th', { scope: 'col', text: `Before (${cmp.after_ring.config.nodes - cmp.new_nodes.length} nodes)` }),
    el('th', { scope: 'col', text: `After (${cmp.after_ring.config.nodes} nodes)` }))));
  const rows = [
    ['Token', b.token, a.token],
    ['Range end (owning vnode)', b.range.end, a.range.end],
    ['Range start', b.range.start, a.range.start],
    ['Primary owner', b.range.owner_name, a.range.owner_name],
    ['Replicas', b.replicas.map((r) => r.name).join(', '), a.replicas.map((r) => r.name).join(', ')],
  ];
  const tb = el('tbody');
  for (const [k, x, y] of rows) {
    tb.append(el('tr', {}, el('th', { scope: 'row', text: k }), el('td', {}, el('code', { text: x })),
      el('td', { class: x === y ? '' : 'changed' }, el('code', { text: y }))));
  }
  table.append(tb);
  const wrap = el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Before and after the join' }, table);
  const newNames = cmp.new_nodes.map((n) => n.name).join(', ');
  let verdict;
  const ownerChanged = b.range.owner_name !== a.range.owner_name;
  if (ownerChanged) {
    verdict = `The hash is unchanged (${b.token}). The primary moved from ${b.range.owner_name} to `
      + `${a.range.owner_name}: the new vnode ${a.range.end} of ${a.range.owner_name} lies at or after `
      + `the key and before the old range end ${b.range.end}.`;
  } else {
    verdict = `The hash is unchanged (${b.token}) and so is the primary, ${b.range.owner_name}: no vnode of `
      + `${newNames} landed between the key and its owning vnode ${b.range.end}.`;
  }
  const predicted = document.querySelector('input[name=predict]:checked');
  if (predicted) {
    const right = (predicted.value === 'yes') === ownerChanged;
    verdict += right ? ' Your prediction was right.' : ' Your prediction was wrong.';
  }
  box.append(el('p', { id: 'join-verdict', text: verdict }), wrap);

  const movedAll = cmp.moved === cmp.moved_to_new;
  $('movement').replaceChildren(
    el('strong', { id: 'moved-count', text: String(cmp.moved) }),
    ` of ${cmp.sample_keys} fixed sample keys changed primary; `,
    el('strong', { id: 'moved-to-new', text: String(cmp.moved_to_new) }),
    ` of them went to the new node ${newNames}${movedAll ? ' (every one)' : ''}. `,
    `Existing tokens unchanged: `,
    el('strong', { id: 'tokens-kept', text: cmp.existing_tokens_unchanged ? 'yes' : 'no' }),
    ` (${cmp.existing_tokens_checked} tokens compared).`,
    cmp.primary_changed_pct === undefined ? ''
      : ` Over the whole ring, ${cmp.primary_changed_pct} % of the token values changed primary `
        + `(exactly ${cmp.primary_changed_width} of 2⁶⁴) and ${cmp.replicas_changed_pct} % changed `
        + `replica set, in ${cmp.stream_count} streams.`);
  const mt = $('moved').tBodies[0];
  mt.replaceChildren();
  for (const m of cmp.sample_moves) {
    mt.append(el('tr', {}, el('td', { text: m.key }), el('td', {}, el('code', { text: exact(m.token) })),
      el('td', { text: m.from }), el('td', { text: m.to })));
  }
  $('moved-details').hidden = cmp.sample_moves.length === 0;
  void before;
}

// ---------------------------------------------------------------- canvas

let canvasCssSize = 0;   // kept by a ResizeObserver, so drawing never forces a layout

function draw() {
  const canvas = $('ring');
  if (!canvasCssSize) canvasCssSize = Math.round(canvas.getBoundingClientRect().width);
  const cssSize = Math.max(200, canvasCssSize || 560);
  const dpr = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(cssSize * dpr)) {
    canvas.width = Math.round(cssSize * dpr);
    canvas.height = Math.round(cssSize * dpr);
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const size = cssSize;
  const cx = size / 2;
  const cy = size / 2;
  const R = size * 0.38;
  const ang = (turn) => -Math.PI / 2 + 2 * Math.PI * turn;
  const at = (turn, r) => [cx + r * Math.cos(ang(turn)), cy + r * Math.sin(ang(turn))];
  const dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  const ink = dark ? '#e8e8e8' : '#222';
  const faint = dark ? '#555' : '#ccc';
  ctx.clearRect(0, 0, size, size);

  // base circle and the wrap point
  ctx.lineWidth = 2;
  ctx.strokeStyle = faint;
  ctx.beginPath();
  ctx.arc(cx, cy, R, 0, 2 * Math.PI);
  ctx.stroke();
  ctx.fillStyle = ink;
  ctx.font = `${Math.max(10, size / 48)}px system-ui, sans-serif`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  const labelFont = Math.max(10, size / 48);
  const wrapText = '−2⁶³ | 2⁶³−1 (wrap)';
  const wrapY = cy - R - size * 0.065;
  ctx.fillText(wrapText, cx + 8, wrapY);
  ctx.textAlign = 'center';
  const zeroY = cy + R + size * 0.085;
  ctx.fillText('0', cx, zeroY);
  // boxes the replica badges must keep clear of: the two ring labels, then the key
  const boxes = [
    { what: 'wrap label', x: cx + 8, y: wrapY - labelFont, w: ctx.measureText(wrapText).width, h: labelFont * 1.3 },
    { what: 'zero label', x: cx - labelFont, y: zeroY - labelFont, w: 2 * labelFont, h: labelFont * 1.3 },
  ];
  ctx.strokeStyle = ink;
  ctx.beginPath();
  ctx.moveTo(cx, cy - R - 6);
  ctx.lineTo(cx, cy - R + 6);
  ctx.stroke();

  const t = state.t;
  const keyTurn = turnOf(route.token);
  const showKey = t >= 10;
  const keyIn = t >= T_END ? 1 : Math.min(1, Math.max(0, (t - 10) / 10));
  const showPrimary = t >= 30;
  // The key sits just inside the ring, where the walk starts; replica badges go outside it,
  // so the two never cover each other.
  const keyR = R - Math.max(22, size * 0.075);
  const keyHalf = Math.max(6, size * 0.014);
  const primaryGrow = t >= T_END ? 1 : Math.min(1, Math.max(0, (t - 20) / 10));

  // the owning range, highlighted
  if (showPrimary) {
    const s = turnOf(route.range.start);
    let e = turnOf(route.range.end);
    if (e <= s) e += 1;
    ctx.lineWidth = size * 0.05;
    ctx.strokeStyle = colourOf(route.range.owner) + '55';
    ctx.beginPath();
    ctx.arc(cx, cy, R, ang(s), ang(e));
    ctx.stroke();
    // the range's bounds: start (exclusive) dashed, end (inclusive) solid
    for (const [turn, dashed] of [[s, true], [e, false]]) {
      const [x1, y1] = at(turn, R - size * 0.06);
      const [x2, y2] = at(turn, R + size * 0.035);
      ctx.lineWidth = 2;
      ctx.strokeStyle = colourOf(route.range.owner);
      ctx.setLineDash(dashed ? [3, 3] : []);
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x2, y2);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  // clockwise walk from the key to the owning vnode (primary stage) and on to the replicas
  const ntok = ring.ring.length;
  const ownerIdx = route.range.index;
  let walkTurns = 0;
  if (t >= 20 && route.replicas.length > 0) {
    const endTurnOf = (steps) => {
      const idx = (ownerIdx + steps) % ntok;
      let e = ringTurns(ring)[idx];
      while (e < keyTurn) e += 1;   // the walk never goes round more than once
      return e;
    };
    const toOwner = endTurnOf(0) - keyTurn;
    if (t < 40) {
      walkTurns = keyTurn + toOwner * primaryGrow;
    } else {
      const walked = walkedSteps();
      const whole = Math.floor(walked);
      const frac = walked - whole;
      const a = endTurnOf(Math.min(whole, route.walk_len - 1));
      const b = endTurnOf(Math.min(whole + 1, route.walk_len - 1));
      walkTurns = a + (b - a) * frac;
    }
    ctx.lineWidth = 3;
    ctx.strokeStyle = ink;
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.arc(cx, cy, keyR, ang(keyTurn), ang(walkTurns));
    ctx.stroke();
    ctx.setLineDash([]);
    // arrow head
    const [hx, hy] = at(walkTurns, keyR);
    const dir = ang(walkTurns) + Math.PI / 2;
    ctx.fillStyle = ink;
    ctx.beginPath();
    ctx.moveTo(hx + 7 * Math.cos(dir), hy + 7 * Math.sin(dir));
    ctx.lineTo(hx + 5 * Math.cos(dir + 2.3), hy + 5 * Math.sin(dir + 2.3));
    ctx.lineTo(hx + 5 * Math.cos(dir - 2.3), hy + 5 * Math.sin(dir - 2.3));
    ctx.closePath();
    ctx.fill();
  }

  // vnodes
  const dot = Math.max(3, Math.min(7, size / (ntok + 40)));
  const turns = ringTurns(ring);
  for (let i = 0; i < ntok; i++) {
    const node = ring.ring[i][1];
    const [x, y] = at(turns[i], R);
    ctx.fillStyle = colourOf(node);
    ctx.beginPath();
    ctx.arc(x, y, dot, 0, 2 * Math.PI);
    ctx.fill();
  }

  // the key: a diamond on the walk's radius, its label further in
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const drawing = { size, badges: [], boxes };
  if (showKey) {
    const r = R * 0.25 + (keyR - R * 0.25) * keyIn;
    const [x, y] = at(keyTurn, r);
    ctx.fillStyle = ink;
    ctx.beginPath();
    ctx.moveTo(x, y - keyHalf);
    ctx.lineTo(x + keyHalf, y);
    ctx.lineTo(x, y + keyHalf);
    ctx.lineTo(x - keyHalf, y);
    ctx.closePath();
    ctx.fill();
    boxes.push({ what: 'key', x: x - keyHalf, y: y - keyHalf, w: 2 * keyHalf, h: 2 * keyHalf });
    const keyFont = Math.max(10, size / 44);
    ctx.font = `${keyFont}px system-ui, sans-serif`;
    const lw = ctx.measureText('key').width;
    // the label further in, just far enough along the radius to clear the diamond
    const ux = Math.abs(Math.cos(ang(keyTurn)));
    const uy = Math.abs(Math.sin(ang(keyTurn)));
    const clear = Math.min(ux > 1e-6 ? (lw / 2 + keyHalf) / ux : Infinity,
      uy > 1e-6 ? (keyFont * 0.65 + keyHalf) / uy : Infinity) + 2;
    const [lx, ly] = at(keyTurn, r - clear);
    ctx.fillText('key', lx, ly);
    boxes.push({ what: 'key label', x: lx - lw / 2, y: ly - keyFont * 0.65, w: lw, h: keyFont * 1.3 });
  }

  // replicas reached, numbered at the vnode they were reached through
  const badgeR = size * 0.026;
  const placed = [];
  const hitsBox = (x, y) => x - badgeR < 1 || y - badgeR < 1 || x + badgeR > size - 1
    || y + badgeR > size - 1 || boxes.some((b) => x + badgeR + 1 > b.x && x - badgeR - 1 < b.x + b.w
    && y + badgeR + 1 > b.y && y - badgeR - 1 < b.y + b.h);
  route.replicas.filter(replicaShown).forEach((r) => {
    const [x, y] = at(turnOf(r.via_token), R);
    ctx.lineWidth = 3;
    ctx.strokeStyle = ink;
    ctx.beginPath();
    ctx.arc(x, y, dot + 5, 0, 2 * Math.PI);
    ctx.stroke();
    // a badge must not cover another badge, the key or a label: try three radii outside
    // the ring, then step clockwise
    const base = turnOf(r.via_token);
    const stepTurn = (2.2 * badgeR) / (2 * Math.PI * (R + size * 0.06));
    let bx;
    let by;
    search: for (let k = 0; k < 90; k++) {
      for (const rr of [R + size * 0.06, R + size * 0.06 + 2.1 * badgeR, R + size * 0.06 + 4.2 * badgeR]) {
        [bx, by] = at(base + k * stepTurn, rr);
        if (!placed.some(([px, py]) => Math.hypot(px - bx, py - by) < 2 * badgeR + 2)
          && !hitsBox(bx, by)) break search;
      }
    }
    placed.push([bx, by]);
    drawing.badges.push({ order: r.order, node: r.name, x: bx, y: by, r: badgeR });
    ctx.strokeStyle = colourOf(r.node);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(...at(turnOf(r.via_token), R + dot + 5));
    ctx.lineTo(bx, by);
    ctx.stroke();
    ctx.fillStyle = colourOf(r.node);
    ctx.beginPath();
    ctx.arc(bx, by, badgeR, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = inkOn(colourOf(r.node));
    ctx.font = `bold ${Math.max(10, size / 42)}px system-ui, sans-serif`;
    ctx.fillText(`${r.order}`, bx, by);
  });
  // what was drawn where, in CSS pixels of the canvas (read by the tests)
  window.labDrawing = drawing;


  // centre caption
  ctx.fillStyle = ink;
  ctx.font = `${Math.max(11, size / 36)}px system-ui, sans-serif`;
  const stage = stageOf(t);
  ctx.fillText(stage === 3 ? `${ring.nodes.length} nodes × ${state.vnodes} vnodes`
    : STAGES[stage].name, cx, cy - size * 0.02);
  ctx.font = `${Math.max(10, size / 46)}px ui-monospace, monospace`;
  if (showKey) ctx.fillText(`token ${route.token}`, cx, cy + size * 0.03);
}

// ---------------------------------------------------------------- playback

let lastFrame = null;

function renderPlayback() {
  $('scrub').value = String(state.t);
  $('scrub-out').textContent = `${state.t.toFixed(1)} s`;
  $('play').disabled = state.playing;
  $('pause').disabled = !state.playing;
  $('play').setAttribute('aria-pressed', String(state.playing));
  const stage = stageOf(state.t);
  for (const li of $('stages').children) {
    const s = Number(li.dataset.stage);
    li.classList.toggle('current', s === stage);
    li.classList.toggle('done', s < stage);
    if (s === stage) li.setAttribute('aria-current', 'step');
    else li.removeAttribute('aria-current');
  }
}

function setTime(t) {
  state.t = Math.max(0, Math.min(T_END, t));
  if (state.t >= T_END) state.playing = false;
  render();
}

function frame(now) {
  if (!state.playing) { lastFrame = null; return; }
  if (lastFrame !== null) setTime(state.t + ((now - lastFrame) / 1000) * state.speed);
  lastFrame = now;
  if (state.playing) requestAnimationFrame(frame);
  else lastFrame = null;
}

function play() {
  if (state.t >= T_END) state.t = 0;
  state.playing = true;
  lastFrame = null;
  render();
  requestAnimationFrame(frame);
}

function pause() {
  state.playing = false;
  render();
}

function nextStage() {
  const stage = stageOf(state.t);
  if (stage === 3) return;
  setTime(STAGES[stage].to);
}

function restart() {
  state.t = 0;
  play();
}

// ---------------------------------------------------------------- wiring

function wire() {
  $('key').addEventListener('input', () => {
    if (state.typed) return;
    state.t = T_END;
    state.playing = false;
    routeKey();
  });
  $('route').addEventListener('click', () => { routeKey(); restart(); });
  for (const id of ['nodes', 'vnodes', 'seed', 'rf']) $(id).addEventListener('change', onTopologyInput);
  $('add-node').addEventListener('click', addNode);
  $('join-add').addEventListener('click', addNode);
  $('join-setup').addEventListener('click', joinSetup);
  $('next-seed').addEventListener('click', () => {
    if (configure({ seed: (state.seed + 1) % 4294967296 })) {
      routeKey();
      setStatus(`Layout seed ${state.seed}: a different example ring for the same nodes `
        + '(not a production rebalance).');
    }
  });
  $('play').addEventListener('click', play);
  $('pause').addEventListener('click', pause);
  $('next-stage').addEventListener('click', nextStage);
  $('restart').addEventListener('click', restart);
  $('speed').addEventListener('change', () => { state.speed = Number($('speed').value) || 1; });
  $('scrub').addEventListener('input', () => setTime(Number($('scrub').value)));
  $('typed-on').addEventListener('change', () => {
    state.typed = $('typed-on').checked;
    syncControls();
    routeKey();
  });
  for (const id of ['types', 'typed-value']) {
    $(id).addEventListener('input', () => { if (state.typed) routeKey(); });
  }
  $('dcs').addEventListener('change', () => { if (configure({ dcs: Number($('dcs').value) })) routeKey(); });
  $('racks').addEventListener('change', () => { if (configure({ racks: Number($('racks').value) })) routeKey(); });
  $('strategy').addEventListener('change', () => {
    if (configure({ strategy: $('strategy').value })) routeKey();
  });
  $('layout').addEventListener('change', () => {
    const layout = Number($('layout').value);
    const size = fitSize(state.nodes, state.vnodes, layout, 'layout');
    if (configure({ layout, nodes: size.nodes, vnodes: size.vnodes,
      rf: Math.min(state.rf, size.nodes) })) {
      routeKey();
      if (size.note) setStatus(size.note);
    }
    showLimitNote(size.note);
  });
  new ResizeObserver((entries) => {
    const width = Math.round(entries[entries.length - 1].contentRect.width);
    if (width && width !== canvasCssSize) {
      canvasCssSize = width;
      if (route) draw();
    }
  }).observe($('ring'));
}

async function main() {
  try {
    lab = await Lab.load(new URL('tokenring.wasm', import.meta.url));
    info = lab.info();
    $('lib-version').textContent = info.version;
    const allocOpt = $('layout').querySelector('option[value="1"]');
    allocOpt.disabled = !info.allocator_layout;
    if (!info.allocator_layout) {
      allocOpt.textContent += ' (not in this build)';
    } else {
      $('alloc-note').textContent = '; switch to the library\'s allocator in the advanced panel';
    }
    $('nodes').max = info.limits.nodes;
    $('vnodes').max = info.limits.vnodes;
    $('limits-size').textContent = limitsText();
    wire();
    if (!configure({})) return;
    routeKey();
    try {
      const bi = await (await fetch(new URL('build-info.json', import.meta.url))).json();
      $('build-info').textContent = `libtokenring ${bi.library_version} compiled to WebAssembly `
        + `(${bi.target}) by ${bi.compiler} from ${bi.sources.join(', ')}.`;
    } catch {
      $('build-info').textContent = `libtokenring ${info.version} compiled to WebAssembly.`;
    }
    document.body.dataset.ready = 'true';
  } catch (e) {
    setStatus(`The lab could not start: ${e.message}. Serve the dist/ folder over HTTP `
      + '(e.g. python3 -m http.server) and open index.html.', true);
    throw e;
  }
}

main();
