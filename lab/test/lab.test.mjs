// End-to-end tests of the token ring lab in Debian's headless Chromium (driven by
// playwright-core; no browser download). The page is served from lab/dist on 127.0.0.1 by a
// tiny static server in this process. Every figure the page shows is checked against the
// native build of the same glue over the natively built libtokenring (build-lab/lab-native).
//
// Run with lab/test.sh (or: cd lab && node --test test/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const labDir = path.resolve(here, '..');
const dist = path.join(labDir, 'dist');
const results = path.join(labDir, 'test-results');
const native = process.env.LAB_NATIVE || path.resolve(labDir, '..', 'build-lab', 'lab-native');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm',
};

let server;
let baseUrl;
let context;
let page;
let userDataDir;
const problems = [];   // console errors, page errors, failed requests

function nativeJson(opts, ...cmd) {
  const args = [];
  for (const [k, v] of Object.entries(opts)) args.push(`--${k}`, String(v));
  const out = execFileSync(native, [...args, ...cmd], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const json = JSON.parse(out);
  assert.equal(json.ok, true, `native answer not ok: ${out}`);
  return json;
}

async function text(selector) {
  return (await page.locator(selector).textContent()).trim();
}

async function replicaRows() {
  return page.$$eval('#replicas tbody tr', (rows) => rows.map((tr) => {
    const td = [...tr.querySelectorAll('td')].map((c) => c.textContent.trim());
    return { order: td[0], name: td[1], dcRack: td[2], via: td[3], steps: td[4] };
  }));
}

async function tokenTable() {
  return page.$$eval('#token-table tbody tr', (rows) => Object.fromEntries(rows.map((tr) => [
    tr.querySelector('th').textContent.trim(),
    tr.querySelector('td').textContent.trim().split(/\s+/),
  ])));
}

async function assertRouteMatches(expected) {
  assert.equal(await text('#i-token'), expected.token, 'token');
  assert.equal(await text('#i-bytes'), expected.key_hex === '' ? '(no bytes)' : expected.key_hex, 'key bytes');
  assert.equal(await text('#i-owner-token'), expected.range.end, 'owning vnode');
  assert.equal(await text('#i-start'), expected.range.start, 'range start');
  assert.equal(await text('#i-end'), expected.range.end, 'range end');
  assert.equal(await text('#i-width'), expected.range.width, 'range width');
  assert.equal(await text('#i-owner'), expected.range.owner_name, 'owner');
  const rows = await replicaRows();
  assert.equal(rows.length, expected.replicas.length, 'replica count');
  expected.replicas.forEach((r, i) => {
    assert.equal(rows[i].order, String(r.order));
    assert.equal(rows[i].name, r.name, `replica ${i + 1} node`);
    assert.equal(rows[i].via, r.via_token, `replica ${i + 1} vnode`);
    assert.equal(rows[i].steps, String(r.steps), `replica ${i + 1} steps`);
    assert.ok(rows[i].dcRack.startsWith(`${r.dc} / ${r.rack}`), `replica ${i + 1} dc/rack`);
  });
}

async function setKey(value) {
  await page.fill('#key', value);
  await page.waitForFunction((v) => document.getElementById('key').value === v, value);
}

async function setNumber(id, value) {
  await page.fill(`#${id}`, String(value));
  await page.press(`#${id}`, 'Enter');
  await page.locator(`#${id}`).blur();
}

before(async () => {
  for (const f of ['index.html', 'app.js', 'style.css', 'tokenring.wasm']) {
    assert.ok(fs.existsSync(path.join(dist, f)), `lab/dist/${f} missing: run lab/build.sh`);
  }
  assert.ok(fs.existsSync(native), `${native} missing: run lab/build.sh`);
  assert.ok(fs.existsSync(chromiumPath), `${chromiumPath} missing: apt-get install chromium`);
  fs.mkdirSync(results, { recursive: true });

  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file = path.normalize(path.join(dist, decodeURIComponent(url.pathname)));
    if (!file.startsWith(dist)) { res.writeHead(403).end(); return; }
    if (url.pathname.endsWith('/')) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404).end('not found'); return; }
      res.writeHead(200, { 'content-type': MIME[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${server.address().port}/`;

  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenring-lab-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  page = context.pages()[0] || await context.newPage();
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()}`));
  page.on('response', (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`); });
  await page.goto(baseUrl);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
});

after(async () => {
  if (context) await context.close();
  if (server) server.close();
  if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
});

test('the page loads the library and routes the default key like the C library', async () => {
  const infoNative = nativeJson({}, 'info');
  assert.equal(await text('#lib-version'), infoNative.version);
  const expected = nativeJson({ nodes: 6, vnodes: 8, seed: 1, replication: 3 }, 'route', 'alice');
  assert.equal(await page.inputValue('#key'), 'alice');
  await assertRouteMatches(expected);
  assert.equal(expected.replicas.length, 3);
});

test('typing a key (UTF-8) re-routes it: token, range and replicas match the C library', async () => {
  for (const key of ['user:42', 'Zürich ☃ 東京', 'a']) {
    await setKey(key);
    const expected = nativeJson({ nodes: 6, vnodes: 8, seed: 1, replication: 3 }, 'route', key);
    await assertRouteMatches(expected);
  }
  // the same key on another topology: same token, different ring answer, still the C one
  await setKey('user:42');
  await setNumber('nodes', 9);
  await setNumber('vnodes', 4);
  await setNumber('rf', 2);
  const expected = nativeJson({ nodes: 9, vnodes: 4, seed: 1, replication: 2 }, 'route', 'user:42');
  await assertRouteMatches(expected);
  assert.equal(await text('#i-token'),
    nativeJson({ nodes: 6, vnodes: 8, seed: 1, replication: 3 }, 'route', 'user:42').token,
    'the token does not depend on the topology');
});

test('replica count cannot exceed the node count, and the page says why', async () => {
  await setNumber('nodes', 3);
  await setNumber('rf', 5);
  assert.equal(await page.inputValue('#rf'), '3');
  assert.match(await text('#rf-note'), /At most 3 \(the node count\)/);
  assert.equal((await replicaRows()).length, 3);
});

test('the empty key shows the minimum-token sentinel, labelled', async () => {
  await setNumber('nodes', 6);
  await setNumber('vnodes', 8);
  await setNumber('rf', 3);
  await setKey('');
  const expected = nativeJson({ nodes: 6, vnodes: 8, seed: 1, replication: 3 }, 'route', '');
  assert.equal(expected.token, '-9223372036854775808');
  await assertRouteMatches(expected);
  assert.equal(await page.isVisible('#i-sentinel'), true);
  assert.match(await text('#i-sentinel'), /Minimum-token sentinel/);
  assert.match(await text('#i-sentinel'), /not a valid CQL key/);
  await setKey('alice');
  assert.equal(await page.isVisible('#i-sentinel'), false);
});

test('predict a join: hash unchanged, movement counter, existing tokens kept', async () => {
  await setKey('alice');
  await page.click('#join-setup');
  assert.match(await text('#join-before'), /Recorded: token/);
  const before = await tokenTable();
  assert.deepEqual(Object.keys(before), ['n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
  const tokenBefore = await text('#i-token');
  await page.check('input[name=predict][value=no]');
  await page.click('#join-add');
  const expected = nativeJson({ nodes: 6, vnodes: 8, seed: 1, replication: 3 }, 'compare', 'alice', 7);
  assert.equal(await text('#moved-count'), String(expected.moved));
  assert.equal(await text('#moved-to-new'), String(expected.moved_to_new));
  assert.ok(expected.moved > 0, 'some primaries move to the new node');
  assert.equal(expected.moved, expected.moved_to_new, 'every moved primary went to the new node');
  assert.equal(await text('#tokens-kept'), 'yes');
  assert.equal(expected.existing_tokens_unchanged, true);
  // the library's tokenring_ring_tokens_kept: all 48 old tokens kept, none lost or gained
  assert.deepEqual([expected.existing_tokens_checked, expected.existing_tokens_lost,
    expected.existing_tokens_gained], [48, 0, 0]);
  assert.match(await text('#movement'), /\(48 tokens compared\)/);
  // the page's own token table: every old node keeps exactly its tokens, n7 is new
  const afterTokens = await tokenTable();
  for (const [node, tokens] of Object.entries(before)) assert.deepEqual(afterTokens[node], tokens, node);
  assert.equal(afterTokens.n7.length, 8);
  assert.deepEqual(afterTokens.n7, expected.new_nodes[0].tokens);
  // the hash is unchanged and the route is the C library's on seven nodes
  assert.equal(await text('#i-token'), tokenBefore);
  await assertRouteMatches(nativeJson({ nodes: 7, vnodes: 8, seed: 1, replication: 3 }, 'route', 'alice'));
  const verdict = await text('#join-verdict');
  assert.match(verdict, /The hash is unchanged/);
  assert.match(verdict, /Your prediction was (right|wrong)\./);
  // the moved-keys table lists exactly the library's moves
  const moved = await page.$$eval('#moved tbody tr', (rows) => rows.map((r) => r.cells[0].textContent));
  assert.deepEqual(moved, expected.sample_moves.map((m) => m.key));
});

test('next layout seed draws a different ring, with the caveat on the page', async () => {
  await page.click('#join-setup');
  const before = await tokenTable();
  await page.click('#next-seed');
  assert.equal(await page.inputValue('#seed'), '2');
  const after = await tokenTable();
  assert.notDeepEqual(after.n1, before.n1);
  assert.match(await text('#seed-caveat'), /not a production rebalance/);
  await assertRouteMatches(nativeJson({ nodes: 6, vnodes: 8, seed: 2, replication: 3 }, 'route', 'alice'));
});

test('exact ownership: the library widths per node, summing to 2^64', async () => {
  await page.click('#join-setup');
  const ring = nativeJson({ nodes: 6, vnodes: 8, seed: 1, replication: 3 }, 'ring');
  const rows = await page.$$eval('#own-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
  assert.equal(rows.length, 6);
  ring.ownership.forEach((o, i) => {
    assert.equal(rows[i][0], o.name);
    assert.equal(rows[i][1], `${o.primary_pct} %`);
    assert.equal(rows[i][2], `${o.effective_pct} %`);
    assert.equal(rows[i][3], o.primary_width);
    assert.equal(rows[i][4], o.effective_width);
    assert.equal(rows[i][5], String(o.vnodes));
  });
  const total = ring.ownership.reduce((s, o) => s + BigInt(o.primary_width), 0n);
  assert.equal(total, 2n ** 64n);
  assert.match(await text('#own-table tfoot'), /18446744073709551616/);
  const widths = new Set(ring.ownership.map((o) => o.primary_width));
  assert.ok(widths.size > 1, 'eight vnodes per node do not give identical shares');
});

test('playback: play, pause, next stage, restart, speed and the inspection slider', async () => {
  await page.click('#route');                       // restarts at 0 s and plays
  await page.click('#pause');
  assert.match(await text('#stage-line'), /Stage 1 of 3: Hashing/);
  const t0 = Number(await page.inputValue('#scrub'));
  assert.ok(t0 < 20, `restarted near 0 s, got ${t0}`);
  await page.waitForTimeout(300);
  assert.equal(Number(await page.inputValue('#scrub')), t0, 'pause holds');
  await page.click('#next-stage');
  assert.match(await text('#stage-line'), /Stage 2 of 3: Primary selection/);
  assert.equal(await page.inputValue('#scrub'), '20');
  await page.click('#next-stage');
  assert.match(await text('#stage-line'), /Stage 3 of 3: Replica selection/);
  assert.equal(await text('#replicas tbody tr:first-child td:nth-child(2)'), await text('#i-owner'));
  await page.click('#next-stage');
  assert.match(await text('#stage-line'), /Complete/);
  await page.click('#restart');
  await page.click('#pause');
  assert.match(await text('#stage-line'), /Stage 1 of 3/);
  assert.equal(await text('#i-owner-token'), '…', 'the primary is not revealed while hashing');
  await page.selectOption('#speed', '10');
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('scrub').value) >= 25, null, { timeout: 10000 });
  await page.click('#pause');
  // scrub with the slider (keyboard operable): End jumps to 60 s, the full answer
  await page.locator('#scrub').focus();
  await page.keyboard.press('End');
  assert.match(await text('#stage-line'), /Complete/);
  await page.locator('#scrub').fill('45');
  assert.match(await text('#stage-line'), /Stage 3 of 3/);
  assert.match(await text('#scrub-out'), /45\.0 s/);
  await page.locator('#scrub').fill('60');
  await assertRouteMatches(nativeJson({ nodes: 6, vnodes: 8, seed: 1, replication: 3 }, 'route', 'alice'));
  assert.match(await text('#playback'), /not a timing benchmark/);
});

test('advanced: composite key and NetworkTopologyStrategy with datacenters and racks', async () => {
  await page.click('#advanced summary');
  await page.selectOption('#dcs', '2');
  await page.selectOption('#racks', '2');
  await page.selectOption('#strategy', 'nts');
  await page.fill('#rf-dc1', '2');
  await page.press('#rf-dc1', 'Enter');
  await page.fill('#rf-dc2', '2');
  await page.press('#rf-dc2', 'Enter');
  await page.check('#typed-on');
  await page.fill('#types', 'text,int');
  await page.fill('#typed-value', 'alice:42');
  const opts = { nodes: 6, vnodes: 8, seed: 1, dcs: 2, racks: 2, replication: 'dc1=2,dc2=2' };
  const expected = nativeJson(opts, 'typed', 'text,int', 'alice:42');
  await assertRouteMatches(expected);
  assert.equal(expected.replicas.length, 4);
  assert.match(await text('#repl-cql'), /NetworkTopologyStrategy/);
  // a malformed typed value is the library's error, shown, not a crash
  await page.fill('#typed-value', 'alice:notanint');
  assert.equal(await page.isVisible('#typed-error'), true);
  // back to the plain text key
  await page.fill('#typed-value', 'alice:42');
  await page.uncheck('#typed-on');
  await assertRouteMatches(nativeJson(opts, 'route', 'alice'));
  await page.selectOption('#strategy', 'simple');
  await page.selectOption('#dcs', '1');
  await page.selectOption('#racks', '1');
});

// The page's current topology as the native checker's --explicit file: names, datacenter,
// rack and tokens exactly as the page shows them.
async function pageTopologyFile(name) {
  const tokens = await tokenTable();
  const places = await page.$$eval('#own-table tbody tr', (trs) => Object.fromEntries(trs.map((tr) => [
    tr.cells[0].textContent.trim(), tr.cells[6].textContent.trim().split(' / ')])));
  const lines = Object.entries(tokens).map(([node, toks]) => `${node} ${places[node].join(' ')} ${toks.join(' ')}`);
  const file = path.join(results, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

test('advanced: the library\'s allocator layout, and a join the allocator places', async () => {
  await page.click('#join-setup');
  if (!(await page.isVisible('#layout'))) await page.click('#advanced summary');
  const seeded = await tokenTable();
  await page.selectOption('#layout', '1');
  assert.equal(await page.isDisabled('#next-seed'), true);
  assert.match(await text('#layout-rule'), /tokenring_allocate_nodes/);
  const planned = await tokenTable();
  assert.notDeepEqual(planned.n1, seeded.n1, 'the allocator chose other tokens');
  // what the page shows on the allocator's ring is the C library's answer for that ring
  const before = await pageTopologyFile('allocator-6.txt');
  await assertRouteMatches(nativeJson({ explicit: before, replication: 3 }, 'route', 'alice'));
  await page.click('#add-node');
  assert.equal(await text('#tokens-kept'), 'yes');
  assert.equal(await text('#moved-count'), await text('#moved-to-new'));
  const joined = await tokenTable();
  for (const [node, toks] of Object.entries(planned)) assert.deepEqual(joined[node], toks, `${node} kept its tokens`);
  assert.equal(joined.n7.length, 8);
  const after = await pageTopologyFile('allocator-7.txt');
  await assertRouteMatches(nativeJson({ explicit: after, replication: 3 }, 'route', 'alice'));
  const ring = nativeJson({ explicit: after, replication: 3 }, 'ring');
  const shares = await page.$$eval('#own-table tbody tr', (trs) => trs.map((tr) => tr.cells[1].textContent.trim()));
  assert.deepEqual(shares, ring.ownership.map((o) => `${o.primary_pct} %`));
  await page.selectOption('#layout', '0');
});

test('the largest topology: 256 nodes × 64 vnodes in 3 datacenters × 3 racks', async () => {
  await page.click('#join-setup');
  if (!(await page.isVisible('#dcs'))) await page.click('#advanced summary');
  await page.selectOption('#dcs', '3');
  await page.selectOption('#racks', '3');
  await page.selectOption('#strategy', 'nts');
  for (const dc of ['dc1', 'dc2', 'dc3']) {
    await page.fill(`#rf-${dc}`, '3');
    await page.press(`#rf-${dc}`, 'Enter');
  }
  await setNumber('vnodes', 64);
  await setNumber('nodes', 256);
  await setKey('user:42');
  const info = nativeJson({}, 'info');
  assert.equal(256 * 64, info.limits.tokens, 'this is the vnode total the lab allows');
  const opts = { nodes: 256, vnodes: 64, seed: 1, dcs: 3, racks: 3, replication: 'dc1=3,dc2=3,dc3=3' };
  await assertRouteMatches(nativeJson(opts, 'route', 'user:42'));
  assert.equal((await replicaRows()).length, 9);
  assert.equal(await page.isDisabled('#add-node'), true, 'a 257th node would pass the vnode total');
  assert.match(await text('#size-limits'), /at the limit, so Add one node is off/);
  assert.equal(await page.isVisible('#limit-note'), false, 'nothing was lowered');
  await page.selectOption('#strategy', 'simple');
  await page.selectOption('#dcs', '1');
  await page.selectOption('#racks', '1');
  await page.click('#join-setup');
  await setKey('alice');
});

test('sizes past the limits are lowered to them, and the page says so', async () => {
  const { limits } = nativeJson({}, 'info');
  assert.deepEqual([limits.nodes, limits.vnodes, limits.tokens, limits.allocator_tokens],
    [1000, 256, 16384, 4096]);
  assert.match(await text('#size-limits'), /up to 1000 nodes and 256 vnodes per node, 16384 vnodes in all \(4096 with the allocator/);
  assert.match(await text('#limits-size'), /up to 1000 nodes/);
  await page.click('#join-setup');
  // 500 nodes fit with 32 vnodes each: drawn and routed as the C library does, nothing lowered
  await setNumber('vnodes', 32);
  await setNumber('nodes', 500);
  assert.equal(await page.inputValue('#nodes'), '500');
  assert.equal(await page.isVisible('#limit-note'), false);
  await assertRouteMatches(nativeJson({ nodes: 500, vnodes: 32, seed: 1, replication: 3 }, 'route', 'alice'));
  assert.equal((await page.$$('#legend li')).length, 500);
  // more vnodes than the total allows: the vnodes (just changed) are lowered, with the reason
  await setNumber('vnodes', 64);
  assert.equal(await page.inputValue('#vnodes'), '32');
  assert.equal(await page.isVisible('#limit-note'), true);
  assert.equal(await text('#limit-note'), 'Vnodes per node lowered from 64 to 32: 500 nodes × 64 vnodes '
    + 'would be 32000 vnodes, and the lab computes at most 16384 in all.');
  // 5000 nodes: lowered, first to the node limit, then to the vnode total
  await setNumber('nodes', 5000);
  assert.equal(await page.inputValue('#nodes'), '512');
  assert.match(await text('#limit-note'), /^Nodes lowered from 5000 to 1000: the lab draws and computes at most 1000 nodes\. Nodes lowered from 1000 to 512: 1000 nodes × 32 vnodes would be 32000 vnodes/);
  assert.match(await text('#status'), /Nodes lowered from 5000 to 1000/);
  assert.equal((await replicaRows()).length, 3);
  await assertRouteMatches(nativeJson({ nodes: 512, vnodes: 32, seed: 1, replication: 3 }, 'route', 'alice'));
  // the allocator layout plans the whole cluster: its lower total lowers the nodes, said so
  if (!(await page.isVisible('#layout'))) await page.click('#advanced summary');
  await page.selectOption('#layout', '1');
  assert.equal(await page.inputValue('#nodes'), '128');
  assert.match(await text('#limit-note'), /Nodes lowered from 512 to 128: 512 nodes × 32 vnodes would be 16384 vnodes, and the lab computes at most 4096 in all with the allocator layout/);
  await page.selectOption('#layout', '0');
  // a size within the limits clears the note
  await page.click('#join-setup');
  await setNumber('nodes', 7);
  assert.equal(await page.isVisible('#limit-note'), false);
  await page.click('#join-setup');
});

const rgbOf = (css) => css.match(/\d+/g).slice(0, 3).map(Number);

test('node colours: one per node up to the node limit, far apart for small rings, named in the legend', async () => {
  await page.click('#join-setup');
  await setNumber('vnodes', 16);
  await setNumber('nodes', 1000);
  assert.equal(await page.inputValue('#nodes'), '1000');
  const legend = await page.$$eval('#legend li', (lis) => lis.map((li) => ({
    name: li.dataset.node, text: li.textContent,
    colour: getComputedStyle(li.querySelector('.swatch')).backgroundColor })));
  assert.equal(legend.length, 1000);
  assert.equal(new Set(legend.map((l) => l.colour)).size, 1000, 'no two nodes share a colour');
  // every node named once; a long legend lists the replicas first, in order, then the rest
  const rows1000 = await replicaRows();
  assert.deepEqual(legend.slice(0, rows1000.length).map((l) => l.name), rows1000.map((r) => r.name));
  legend.slice(0, rows1000.length).forEach((l, i) => assert.match(l.text, new RegExp(`replica ${i + 1}$`)));
  assert.deepEqual(legend.map((l) => l.name).sort(), Array.from({ length: 1000 }, (_, i) => `n${i + 1}`).sort());
  legend.forEach((l) => assert.ok(l.text.startsWith(l.name), `legend names ${l.name}`));
  // the ring's dots use the same colours (the first vnode of n1 is drawn in n1's colour)
  const ringTable = nativeJson({ nodes: 1000, vnodes: 16, seed: 1, replication: 3 }, 'ring');
  assert.equal(ringTable.ring.length, 16000);
  await page.click('#join-setup');
  // the first twelve nodes: no two colours closer than 40 in RGB (the old palette repeated
  // after sixteen and had near-twins among its first sixteen)
  await setNumber('nodes', 12);
  const colours = await page.$$eval('#legend li .swatch', (ss) => ss.map((s) => getComputedStyle(s).backgroundColor));
  let closest = Infinity;
  for (let i = 0; i < colours.length; i++) {
    for (let j = 0; j < i; j++) {
      const [a, b] = [rgbOf(colours[i]), rgbOf(colours[j])];
      closest = Math.min(closest, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    }
  }
  assert.equal(colours.length, 12);
  assert.ok(closest >= 40, `closest two of the first twelve colours are ${closest.toFixed(1)} apart`);
  // colour is not the only cue: each replica is named in the legend with its number
  const tags = await page.$$eval('#legend li', (lis) => lis.filter((li) => li.querySelector('.tag'))
    .map((li) => [li.querySelector('.tag').textContent, li.dataset.node]));
  const rows = await replicaRows();
  assert.deepEqual(tags.sort(), rows.map((r) => [`replica ${r.order}`, r.name]).sort());
  await page.click('#join-setup');
});

// The canvas's own account of what it drew where (CSS pixels).
async function assertNothingCovered(where) {
  const d = await page.evaluate(() => window.labDrawing);
  const rows = await replicaRows();
  assert.equal(d.badges.length, rows.length, `${where}: a badge per replica`);
  assert.deepEqual(d.badges.map((b) => b.node), rows.map((r) => r.name), `${where}: badges in replica order`);
  assert.ok(d.boxes.some((b) => b.what === 'key'), `${where}: the key is drawn`);
  for (const [i, b] of d.badges.entries()) {
    assert.ok(b.x - b.r >= 0 && b.y - b.r >= 0 && b.x + b.r <= d.size && b.y + b.r <= d.size,
      `${where}: badge ${b.order} inside the canvas`);
    for (const c of d.badges.slice(0, i)) {
      assert.ok(Math.hypot(b.x - c.x, b.y - c.y) >= b.r + c.r, `${where}: badges ${c.order} and ${b.order} overlap`);
    }
    for (const box of d.boxes) {
      const nx = Math.max(box.x, Math.min(b.x, box.x + box.w));
      const ny = Math.max(box.y, Math.min(b.y, box.y + box.h));
      assert.ok(Math.hypot(b.x - nx, b.y - ny) >= b.r, `${where}: badge ${b.order} covers the ${box.what}`);
    }
  }
  const key = d.boxes.find((b) => b.what === 'key');
  const label = d.boxes.find((b) => b.what === 'key label');
  // and the pixels agree: the key's centre is still the key's ink, not a badge drawn later
  const px = await page.evaluate(([x, y]) => {
    const c = document.getElementById('ring');
    const k = c.width / c.getBoundingClientRect().width;
    return [...c.getContext('2d').getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data];
  }, [key.x + key.w / 2, key.y + key.h / 2]);
  assert.ok(px[3] > 200 && Math.max(px[0], px[1], px[2]) < 70, `${where}: the key's centre is ${px}`);
  assert.ok(key.x + key.w <= label.x || label.x + label.w <= key.x || key.y + key.h <= label.y
    || label.y + label.h <= key.y, `${where}: the key's label is clear of the key`);
}

test('replica badges never cover the key marker, its label, each other or the ring labels', async () => {
  const keys = ['alice', 'user:42', ...Array.from({ length: 14 }, (_, i) => `key-${i}`)];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.click('#join-setup');
    for (const k of keys) {
      await setKey(k);
      await assertNothingCovered(`${width} px, six nodes, ${k}`);
    }
    // nine replicas close together: three datacenters of three racks, many nodes
    if (!(await page.isVisible('#dcs'))) await page.click('#advanced summary');
    await page.selectOption('#dcs', '3');
    await page.selectOption('#racks', '3');
    await page.selectOption('#strategy', 'nts');
    for (const dc of ['dc1', 'dc2', 'dc3']) {
      await page.fill(`#rf-${dc}`, '3');
      await page.press(`#rf-${dc}`, 'Enter');
    }
    await setNumber('nodes', 32);
    await setNumber('vnodes', 64);
    for (const k of keys) {
      await setKey(k);
      await assertNothingCovered(`${width} px, 32 nodes, nine replicas, ${k}`);
    }
    await page.selectOption('#strategy', 'simple');
    await page.selectOption('#dcs', '1');
    await page.selectOption('#racks', '1');
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.click('#join-setup');
  await setKey('alice');
});

// Elements whose text is cut (wider content than box) or selects whose options do not fit.
async function clippedText() {
  return page.evaluate(() => {
    const visible = (e) => e.offsetParent !== null && e.clientWidth > 0;
    const name = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''} "${e.textContent.trim().slice(0, 40)}"`;
    const bad = [];
    for (const e of document.querySelectorAll('main th, main td, main label, main button, main summary, main h2, main h3, main dt, main dd, main legend, main .stages li, main .walk li, main .legend li')) {
      // (a phone's stacked table keeps its header row only for screen readers, 1 px wide)
      const srOnly = e.closest('thead') && getComputedStyle(e.closest('thead')).position === 'absolute';
      if (visible(e) && !srOnly && e.scrollWidth > e.clientWidth + 1) bad.push(`${name(e)}: ${e.scrollWidth} > ${e.clientWidth}`);
    }
    for (const e of document.querySelectorAll('main .table-wrap')) {
      if (visible(e) && e.scrollWidth > e.clientWidth + 1) bad.push(`table ${e.getAttribute('aria-label')} scrolls: ${e.scrollWidth} > ${e.clientWidth}`);
    }
    const ctx = document.createElement('canvas').getContext('2d');
    for (const sel of document.querySelectorAll('main select')) {
      if (!visible(sel)) continue;
      const cs = getComputedStyle(sel);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
      for (const o of sel.options) {
        const w = ctx.measureText(o.text).width;
        if (w > room) bad.push(`select#${sel.id} option "${o.text}": ${w.toFixed(0)} > ${room.toFixed(0)}`);
      }
    }
    return bad;
  });
}

test('no text is cut at phone or desktop width: tables, labels, the advanced panel', async () => {
  await page.click('#join-setup');
  await page.click('#join-add');
  if (!(await page.isVisible('#dcs'))) await page.click('#advanced summary');
  await page.locator('#moved-details summary').click();
  await page.locator('#tokens-details summary').click();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(100);
    assert.deepEqual(await clippedText(), [], `${width} px`);
    // the replica table's last column is whole, inside the card
    const [steps, wrap] = await page.$$eval('#replicas thead th:last-child, #inspector .table-wrap',
      (es) => es.map((e) => e.getBoundingClientRect().right));
    assert.ok(steps <= wrap + 0.5, `${width} px: Steps column ends at ${steps}, the table at ${wrap}`);
    assert.equal(await text('#replicas thead th:last-child'), 'Steps');
  }
  // NetworkTopologyStrategy's per-datacenter fields too
  await page.selectOption('#dcs', '3');
  await page.selectOption('#strategy', 'nts');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(100);
    assert.deepEqual(await clippedText(), [], `${width} px, NetworkTopologyStrategy`);
  }
  await page.selectOption('#strategy', 'simple');
  await page.selectOption('#dcs', '1');
  await page.locator('#moved-details summary').click();
  await page.locator('#tokens-details summary').click();
});

test('desktop: the ring stays beside a long inspector, no blank column under it', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.click('#join-setup');
  if (!(await page.isVisible('#dcs'))) await page.click('#advanced summary');
  await page.selectOption('#dcs', '3');
  await page.selectOption('#racks', '3');
  await page.selectOption('#strategy', 'nts');
  for (const dc of ['dc1', 'dc2', 'dc3']) {
    await page.fill(`#rf-${dc}`, '3');
    await page.press(`#rf-${dc}`, 'Enter');
  }
  await setNumber('nodes', 32);
  await setNumber('vnodes', 64);
  await setKey('user:42');
  const box = (sel) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: r.height }; });
  const ringCard = await box('#ring-section');
  const inspector = await box('#inspector');
  assert.ok(inspector.height > 1.3 * (await box('#ring-section .ring-sticky')).height,
    'the inspector is much taller than the ring here (nine replicas, a long walk)');
  assert.ok(Math.abs(ringCard.bottom - inspector.bottom) <= 1, 'both cards end together');
  // scrolling down the inspector, the ring column shows the ring wherever the card is in
  // view, rather than a blank card (at most the card's padding and the sticky offset free)
  const stageTop = await page.$eval('.stage', (e) => e.getBoundingClientRect().top + window.scrollY);
  const stageH = (await box('.stage')).height;
  let checked = 0;
  for (let y = stageTop - 400; y < stageTop + stageH; y += 150) {
    await page.evaluate((v) => window.scrollTo(0, v), y);
    const seen = await page.evaluate(() => {
      // the card below its heading and hint, and the ring, as far as they are in view
      const hint = document.querySelector('#ring-section > .hint').getBoundingClientRect();
      const vis = (sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        const top = sel === '#ring-section' ? Math.max(r.top, hint.bottom) : r.top;
        return { shown: Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(top, 0)), height: r.height };
      };
      const covers = [...document.querySelectorAll('#ring-section > :not(.ring-sticky)')].some((e) => {
        const a = e.getBoundingClientRect();
        const b = document.querySelector('#ring-section .ring-sticky').getBoundingClientRect();
        return a.bottom > b.top + 1 && b.bottom > a.top + 1;
      });
      return { card: vis('#ring-section'), ring: vis('#ring-section .ring-sticky'), covers };
    });
    assert.equal(seen.covers, false, `at scroll ${y}: the sticky ring lies over the card's text`);
    if (seen.card.shown < 100) continue;
    checked++;
    assert.ok(seen.ring.shown >= Math.min(seen.ring.height, seen.card.shown) - 40,
      `at scroll ${y}: ${seen.card.shown} px of the ring card (below its hint) in view but only ${seen.ring.shown} px of the ring`);
  }
  assert.ok(checked >= 5, `checked ${checked} scroll positions`);
  await page.$eval('#walk li:last-child', (e) => window.scrollBy(0, e.getBoundingClientRect().bottom - innerHeight + 150));
  await page.screenshot({ path: path.join(results, 'lab-desktop-long-inspector.png') });
  await page.selectOption('#strategy', 'simple');
  await page.selectOption('#dcs', '1');
  await page.selectOption('#racks', '1');
  await page.click('#join-setup');
  await setKey('alice');
});

function vectorRows(file) {
  const lines = fs.readFileSync(path.resolve(labDir, '..', 'tests', 'data', file), 'utf8')
    .split('\n').filter((l) => l !== '');
  const head = lines[0].split('\t');
  return lines.slice(1).map((l) => Object.fromEntries(l.split('\t').map((v, i) => [head[i], v])));
}

test('the page gives Cassandra\'s tokens: golden vectors entered as typed and composite keys', async () => {
  await page.click('#join-setup');
  if (!(await page.isVisible('#types'))) await page.click('#advanced summary');
  await page.check('#typed-on');
  const rows = [
    ...vectorRows('murmur3_composite.tsv').map((r) => [r.cql_types, r.value_string, r.key_hex, r.token]),
    ...vectorRows('murmur3_cql_values.tsv').map((r) => [r.cql_type, r.value_string, r.key_hex, r.token]),
    ...vectorRows('murmur3_tokens.tsv').filter((_, i) => i % 40 === 0)
      .map((r) => ['blob', r.key_hex, r.key_hex, r.token]),
  ];
  assert.ok(rows.length > 200, `only ${rows.length} vector rows`);
  // Each row goes through the page's own input handlers (input events on the two fields);
  // all rows in one round trip.
  const shown = await page.evaluate((all) => all.map(([t, v]) => {
    for (const [id, x] of [['types', t], ['typed-value', v]]) {
      const input = document.getElementById(id);
      input.value = x;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
    const err = document.getElementById('typed-error');
    return { error: err.hidden ? '' : err.textContent,
      bytes: document.getElementById('i-bytes').textContent.trim(),
      token: document.getElementById('i-token').textContent.trim() };
  }), rows.map(([t, v]) => [t, v]));
  let checked = 0;
  rows.forEach(([types, value, keyHex, token], i) => {
    const where = `${types} ${JSON.stringify(value)}`;
    assert.equal(shown[i].error, '', where);
    assert.equal(shown[i].bytes, keyHex === '' ? '(no bytes)' : keyHex, `${where} bytes`);
    assert.equal(shown[i].token, token, `${where} token`);
    checked++;
  });
  assert.equal(checked, rows.length);
  await page.uncheck('#typed-on');
  await page.fill('#types', 'text,int');
  await page.fill('#typed-value', 'alice:42');
});

test('screenshots at desktop and phone widths', async () => {
  await page.click('#join-setup');
  await page.click('#join-add');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(results, 'lab-desktop.png'), fullPage: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(results, 'lab-desktop-top.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no horizontal scrolling at phone width (overflow ${overflow}px)`);
  await page.screenshot({ path: path.join(results, 'lab-phone.png'), fullPage: true });
  await page.locator('#ring-section').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(results, 'lab-phone-ring.png') });
  await page.locator('#inspector').screenshot({ path: path.join(results, 'lab-phone-inspector.png') });
  await page.locator('#ownership').screenshot({ path: path.join(results, 'lab-phone-ownership.png') });
  if (!(await page.isVisible('#dcs'))) await page.click('#advanced summary');
  await page.locator('#advanced').screenshot({ path: path.join(results, 'lab-phone-advanced.png') });
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.ok(fs.statSync(path.join(results, 'lab-desktop.png')).size > 10000);
});

test('keyboard: every control is reachable with Tab and has a label', async () => {
  const unlabelled = await page.$$eval('input, select, button', (els) => els
    .filter((e) => !e.closest('[hidden]'))
    .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !(e.tagName === 'BUTTON' && e.textContent.trim()))
    .map((e) => e.id || e.outerHTML.slice(0, 60)));
  assert.deepEqual(unlabelled, []);
  await page.locator('#key').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'route');
  await page.keyboard.press('Enter');           // Route key by keyboard
  await page.click('#pause');
  assert.match(await text('#stage-line'), /Stage 1 of 3/);
  await page.click('#next-stage');
  await page.click('#next-stage');
  await page.click('#next-stage');
});

test('no console errors, page errors or failed requests', () => {
  assert.deepEqual(problems, []);
});
