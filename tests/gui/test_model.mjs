// SPDX-License-Identifier: MIT
// gui/model: the page's replay of the runner's events (model.js) in
// node, without a browser: states and what on, priorities, IRQ spans,
// marks, the state at a date and the slices the timeline draws.
// Usage: node test_model.mjs SOURCE/tools/sim-gui/model.js

import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';

const { buildModel, changeAt, describe, slices } = await import(pathToFileURL(process.argv[2]));

const ev = (date, kind, thread, object = null, arg = 0, cpu = 0) => ({ date, cpu, kind, thread, object, arg });
// low takes lock; high wakes at 1000, blocks on it, boosts low; an IRQ
// from 1500 to 1600 readies nobody; low releases at 3000.
const events = [
  ev(0, 'create', 'low', null, 10),
  ev(0, 'start', 'low', null, 10),
  ev(0, 'create', 'high', null, 30),
  ev(0, 'ready', 'high', null, 30),
  ev(0, 'switch', 'high', null, 0),
  ev(0, 'block', 'high', 'delay'),
  ev(0, 'ready', 'low', null, 10),
  ev(0, 'switch', 'low', 'high', 0),
  ev(0, 'mark', 'low', 'took lock'),
  ev(1000, 'wake', 'high', 'delay'),
  ev(1000, 'ready', 'high', null, 30),
  ev(1000, 'switch', 'high', 'low', 0),
  ev(1000, 'block', 'high', 'lock'),
  ev(1000, 'prio', 'low', 'lock', 30),
  ev(1000, 'switch', 'low', 'high', 0),
  ev(1500, 'irq', 'head', null, 7),
  ev(1600, 'irq_exit', 'head', null, 7),
  ev(3000, 'wake', 'high', 'lock'),
  ev(3000, 'ready', 'high', null, 30),
  ev(3000, 'prio', 'low', null, 10),
  ev(3000, 'switch', 'high', 'low', 0),
  ev(3500, 'exit', 'high'),
];
const m = buildModel(events, 4000, ['main', 'low', 'high']);

// Rows in the runner's order, main first though it has no event.
assert.deepEqual(
  m.threads.map((t) => t.name),
  ['main', 'low', 'high'],
);
const [main, low, high] = m.threads;
assert.equal(changeAt(main, 2000).state, 'dormant');

// The state at a date is the last change of that date.
assert.equal(describe(changeAt(high, 0)), 'blocked on delay');
assert.equal(describe(changeAt(high, 999)), 'blocked on delay');
assert.equal(describe(changeAt(high, 1000)), 'blocked on lock');
assert.equal(describe(changeAt(low, 1000)), 'running on cpu0');
assert.equal(changeAt(low, 1000).prio, 30);
assert.equal(changeAt(low, 1000).base, 10);
assert.equal(changeAt(low, 3000).prio, 10);
assert.equal(describe(changeAt(low, 3000)), 'ready');
assert.equal(describe(changeAt(high, 3200)), 'running on cpu0');
assert.equal(changeAt(high, 3500).state, 'exited');
assert.equal(changeAt({ changes: [{ date: 5 }] }, 4), null);

// Slices: each change to the next, the last to the end.
const spans = (t) =>
  slices(t, m.end)
    .filter((s) => s.end > s.start || s.last)
    .map((s) => `${s.start}-${s.end} ${s.state}${s.on ? ` ${s.on}` : ''}${s.prio !== s.base ? ` boosted ${s.prio}` : ''}`);
assert.deepEqual(spans(high), ['0-1000 blocked delay', '1000-3000 blocked lock', '3000-3500 running', '3500-4000 exited']);
assert.deepEqual(spans(low), ['0-1000 running', '1000-3000 running boosted 30', '3000-4000 ready']);
assert.equal(slices(low, m.end).at(-1).last, true);

// IRQs: entry to exit; marks on their thread.
assert.deepEqual(m.irqs, [{ start: 1500, end: 1600, domain: 'head', irq: 7, cpu: 0 }]);
assert.deepEqual(low.marks, [{ date: 0, text: 'took lock' }]);

// An IRQ still in its handler at the pause ends there.
const open = buildModel([ev(10, 'irq', 'head', null, 3)], 50);
assert.equal(open.irqs[0].end, 50);
assert.equal(buildModel([], 0).threads.length, 0);

console.log('model test passed');
