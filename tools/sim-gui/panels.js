// SPDX-License-Identifier: MIT
// The panels: threads at the cursor's date, and the objects, timers
// and pipeline the runner reports at the paused date.

import { changeAt, describe } from './model.js';
import { formatDate } from './time.js';

function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text ?? '';
  if (cls) {
    td.className = cls;
  }
  return td;
}

function table(host, headers) {
  const t = document.createElement('table');
  const head = t.createTHead().insertRow();
  for (const h of headers) {
    const th = document.createElement('th');
    th.textContent = h;
    head.appendChild(th);
  }
  host.appendChild(t);
  return t.createTBody();
}

// A titled table, a row per item, @cells(item) its cells' texts.
function listing(host, title, headers, items, cells) {
  const h = document.createElement('h3');
  h.textContent = title;
  host.appendChild(h);
  const body = table(host, headers);
  for (const item of items) {
    const row = body.insertRow();
    for (const text of cells(item)) {
      cell(row, text);
    }
  }
}

// At the paused date the runner's own view (skins, switches, CPU time);
// elsewhere the states the event log gives.
export function showThreads(host, { model, cursor, date, threads }) {
  host.replaceChildren();
  const title = document.createElement('h2');
  title.textContent = `Threads at ${formatDate(cursor)}`;
  host.appendChild(title);
  if (cursor === date && threads) {
    const body = table(host, ['thread', 'state', 'waits for', 'prio', 'base', 'cpu', 'skins', 'switches']);
    for (const t of threads) {
      const row = body.insertRow();
      row.dataset.thread = t.name;
      cell(row, t.name);
      cell(row, t.state, `state ${t.state}`);
      cell(row, t.waits);
      cell(row, t.prio, t.prio !== t.base_prio ? 'boosted' : '');
      cell(row, t.base_prio);
      cell(row, t.cpu);
      cell(row, t.skins);
      cell(row, t.switches);
    }
    return;
  }
  const note = document.createElement('p');
  note.className = 'note';
  note.textContent = 'from the event log (the runner reports the paused date only)';
  host.appendChild(note);
  const body = table(host, ['thread', 'state', 'prio', 'base', 'cpu']);
  for (const t of model.threads) {
    const c = changeAt(t, cursor);
    if (!c || c.state === 'dormant') {
      continue;
    }
    const row = body.insertRow();
    row.dataset.thread = t.name;
    cell(row, t.name);
    cell(row, describe(c), `state ${c.state}`);
    cell(row, c.prio, c.prio !== c.base ? 'boosted' : '');
    cell(row, c.base);
    cell(row, c.cpu);
  }
}

// "3 / 8" and a bar, for what holds a count against a capacity.
function fill(row, o) {
  const td = cell(row, o.capacity === undefined ? o.count : `${o.count} / ${o.capacity}`);
  if (o.capacity) {
    const bar = document.createElement('meter');
    bar.min = 0;
    bar.max = o.capacity;
    bar.value = o.count;
    td.appendChild(bar);
  }
}

// @onGoto(date): the button that makes the cursor the paused date.
export function showObjects(host, { cursor, date, objects, timers, pipeline, onGoto }) {
  host.replaceChildren();
  const title = document.createElement('h2');
  title.textContent = `Objects at ${formatDate(date)}`;
  host.appendChild(title);
  if (cursor !== date) {
    const p = document.createElement('p');
    p.className = 'note';
    p.textContent = `The objects are those of the paused date; the cursor is at ${formatDate(cursor)}. `;
    const go = document.createElement('button');
    go.id = 'goto-cursor';
    go.textContent = 'Go to the cursor';
    go.title = 'restart and run to the cursor: the same run, so the same state';
    go.addEventListener('click', () => onGoto(cursor));
    p.appendChild(go);
    host.appendChild(p);
  }
  const body = table(host, ['skin', 'class', 'name', 'count', 'owner', 'waiters (queue order)', 'waiting for room']);
  for (const o of objects ?? []) {
    const row = body.insertRow();
    row.dataset.object = o.name;
    cell(row, o.skin);
    cell(row, o.class);
    cell(row, o.name);
    fill(row, o);
    cell(row, o.owner);
    cell(row, (o.waiters ?? []).join(', '));
    cell(row, (o.senders ?? []).join(', '));
  }
  if (timers?.length) {
    listing(host, 'Pending timers', ['timer or its thread', 'cpu', 'date', 'interval'], timers, (t) => [
      t.name || t.thread,
      t.cpu,
      formatDate(t.date),
      t.interval ? formatDate(t.interval) : '',
    ]);
  }
  if (pipeline?.length) {
    listing(host, 'Pipeline', ['domain', 'priority', 'stalled (per CPU)', 'pending IRQs (per CPU)'], pipeline, (d) => [
      d.domain,
      d.priority,
      d.stalled.map((st) => (st ? 'yes' : 'no')).join(' '),
      d.pending.map((p) => (p.length ? p.join(',') : '-')).join(' '),
    ]);
  }
}
