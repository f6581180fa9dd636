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
  const out = execFileSync(native, [...args, ...cmd], { encoding: 'utf8' });
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

test('the largest topology: 32 nodes × 64 vnodes in 3 datacenters × 3 racks', async () => {
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
  const opts = { nodes: 32, vnodes: 64, seed: 1, dcs: 3, racks: 3, replication: 'dc1=3,dc2=3,dc3=3' };
  await assertRouteMatches(nativeJson(opts, 'route', 'user:42'));
  assert.equal((await replicaRows()).length, 9);
  assert.equal(await page.isDisabled('#add-node'), true, 'no more than 32 nodes');
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
