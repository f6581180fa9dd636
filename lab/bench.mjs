// Times the lab's glue in WebAssembly (lab/dist/tokenring.wasm in Node's V8, the engine of
// Chromium) next to its native twin (build-lab/lab-native, same sources, host compiler), for
// the topology sizes given as NODES:VNODES[:LAYOUT[:DCS[:REPLICATION]]] (LAYOUT 0 seeded, 1
// allocator). Prints, per size, the time to lay out the ring and build its placement
// (lab_configure, which also formats the ring as JSON), to parse that JSON, and to predict a
// one-node join from NODES - 1 to NODES (lab_compare: a second ring and the movement
// analysis of the 200 sample keys).
//
//   lab/build.sh && node lab/bench.mjs 6:8 256:64 1000:16 64:64:1
//
// Not a test: the figures depend on the machine. doc/lab.md records a run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const native = process.env.LAB_NATIVE || path.resolve(here, '..', 'build-lab', 'lab-native');
const bytes = fs.readFileSync(path.join(here, 'dist', 'tokenring.wasm'));
let ex;
const view = () => new DataView(ex.memory.buffer);
const zero = (a, b) => { view().setUint32(a, 0, true); view().setUint32(b, 0, true); return 0; };
const wasi = new Proxy({
  fd_write(fd, iovs, n, written) {
    let total = 0;
    for (let i = 0; i < n; i++) total += view().getUint32(iovs + 8 * i + 4, true);
    view().setUint32(written, total, true);
    return 0;
  },
  environ_sizes_get: zero, args_sizes_get: zero, environ_get: () => 0, args_get: () => 0,
  clock_time_get(id, precision, out) { view().setBigUint64(out, BigInt(Date.now()) * 1000000n, true); return 0; },
}, { get: (t, name) => (name in t ? t[name] : () => 52) });
({ exports: ex } = (await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasi })).instance);
ex._initialize();

const text = (p) => {
  const m = new Uint8Array(ex.memory.buffer);
  let e = p;
  while (m[e]) e++;
  return new TextDecoder().decode(m.subarray(p, e));
};
const put = (s) => {
  const b = new TextEncoder().encode(s);
  const p = ex.lab_alloc(b.length);
  new Uint8Array(ex.memory.buffer, p, b.length).set(b);
  return [p, b.length];
};
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const nativeMs = (args) => {
  const t0 = process.hrtime.bigint();
  execFileSync(native, args, { maxBuffer: 256 << 20 });
  return ms(t0);
};

console.log('size (nodes:vnodes:layout:dcs)   vnodes  wasm configure  JSON  parse  wasm join | native configure  native join (native times include starting the process)');
for (const spec of process.argv.slice(2)) {
  const [nodes, vnodes, layout = 0, dcs = 1, repl = '3'] = spec.split(':');
  const [rp, rn] = put(repl);
  let t0 = process.hrtime.bigint();
  const out = text(ex.lab_configure(+nodes, +vnodes, 1, +dcs, +dcs, +layout, rp, rn));
  const configure = ms(t0);
  t0 = process.hrtime.bigint();
  const ring = JSON.parse(out);
  const parse = ms(t0);
  if (!ring.ok) { console.log(`${spec}: refused: ${ring.message}`); continue; }
  // the join: from nodes - 1 to nodes (so the largest size allowed is the one joined)
  const [rp2, rn2] = put(repl);
  JSON.parse(text(ex.lab_configure(+nodes - 1, +vnodes, 1, +dcs, +dcs, +layout, rp2, rn2)));
  const [kp, kn] = put('alice');
  t0 = process.hrtime.bigint();
  const cmp = JSON.parse(text(ex.lab_compare(kp, kn, +nodes)));
  const join = ms(t0);
  const opts = ['--vnodes', vnodes, '--layout', String(layout), '--dcs', String(dcs),
    '--racks', String(dcs), '--replication', repl];
  const nConfigure = nativeMs(['--nodes', nodes, ...opts, 'ring']);
  const nJoin = cmp.ok ? nativeMs(['--nodes', String(nodes - 1), ...opts, 'compare', 'alice', nodes]) : NaN;
  console.log(`${spec.padEnd(32)} ${String(ring.ring.length).padStart(6)}  ${configure.toFixed(0).padStart(11)} ms `
    + `${(out.length / 1e6).toFixed(1).padStart(4)} MB ${parse.toFixed(0).padStart(4)} ms `
    + `${cmp.ok ? `${join.toFixed(0).padStart(7)} ms` : ' (limit)'} | ${nConfigure.toFixed(0).padStart(13)} ms `
    + `${Number.isNaN(nJoin) ? '     (limit)' : `${nJoin.toFixed(0).padStart(9)} ms`}`);
}
