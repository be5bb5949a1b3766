// SPDX-License-Identifier: MIT
// fusion sim --gui: the controls, and what a stop refreshes.  Each
// action is one runner command (api.js); after a command that ran the
// program, the threads, objects, timers, pipeline, events and
// breakpoints are read again, since the runner answers only while the
// program is paused.

import { command } from './api.js';
import { EventLog } from './log.js';
import { buildModel } from './model.js';
import { showObjects, showThreads } from './panels.js';
import { Timeline } from './timeline.js';
import { commandDate, formatDate } from './time.js';

const $ = (id) => document.getElementById(id);

const view = {
  date: 0,
  cursor: 0,
  model: buildModel([], 0),
  threads: null,
  objects: null,
  timers: null,
  pipeline: null,
};

const timeline = new Timeline($('timeline'), { onCursor: setCursor, onGoto: gotoDate });
const log = new EventLog($('log'), { onCursor: setCursor });

function say(text, error = false) {
  const status = $('status');
  status.textContent = text;
  status.classList.toggle('error', error);
}

// "paused at 1.000 ms: breakpoint 1, block high mutex"
function stopText(reply) {
  if (reply.state === 'exited') {
    const how = reply.stop?.signal ? `signal ${reply.stop.signal}` : `status ${reply.stop?.status ?? '?'}`;
    return `exited (${how}) at ${formatDate(reply.date)}`;
  }
  let text = `paused at ${formatDate(reply.date)}`;
  const stop = reply.stop;
  if (stop) {
    text += `: ${stop.reason === 'break' ? `breakpoint ${stop.break}` : stop.reason}`;
    const e = stop.event;
    if (e) {
      text += `, ${[e.kind, e.thread, e.object].filter(Boolean).join(' ')}`;
    }
  }
  return text;
}

function setCursor(date) {
  view.cursor = date;
  $('cursor-date').textContent = formatDate(date);
  timeline.setCursor(date);
  log.setCursor(date);
  drawPanels();
}

function drawPanels() {
  showThreads($('threads'), view);
  showObjects($('objects'), { ...view, onGoto: gotoDate });
}

function busy(running) {
  for (const b of document.querySelectorAll('.control')) {
    b.disabled = running;
  }
  $('pause').disabled = !running;
  document.body.classList.toggle('running', running);
}

// What the runner says at the paused date; an exited program says
// nothing more, and its last view stays.
async function refresh() {
  const parts = {};
  let dropped = 0;
  for (const what of ['threads', 'objects', 'timers', 'pipeline', 'events']) {
    const reply = await command('print', what);
    if (!reply.ok) {
      return;
    }
    parts[what] = reply[what];
    dropped = reply.dropped ?? dropped;
  }
  Object.assign(view, parts);
  view.model = buildModel(
    parts.events,
    view.date,
    parts.threads.map((t) => t.name),
  );
  timeline.setModel(view.model);
  log.setEvents(parts.events, dropped);
  setCursor(view.date);
}

async function showBreaks() {
  const reply = await command('break', 'list');
  const list = $('break-list');
  list.replaceChildren();
  for (const b of reply.breaks ?? []) {
    const item = document.createElement('li');
    item.dataset.id = b.id;
    item.textContent = `#${b.id} ${b.spec} (hits ${b.hits}) `;
    const del = document.createElement('button');
    del.className = 'control';
    del.textContent = 'remove';
    del.title = `break del ${b.id}`;
    del.addEventListener('click', async () => {
      const r = await command('break', `del ${b.id}`);
      if (!r.ok) {
        say(r.error, true);
      }
      await showBreaks();
    });
    item.appendChild(del);
    list.appendChild(item);
  }
}

// A command that runs the program: Pause is the only control meanwhile.
async function runCommand(verb, args = '') {
  busy(true);
  say(`running (${[verb, args].filter(Boolean).join(' ')})…`);
  const reply = await command(verb, args);
  if (reply.ok) {
    view.date = reply.date;
    await refresh();
    await showBreaks();
  }
  busy(false);
  // Last, so that what the status says is what the panels show.
  say(reply.ok ? stopText(reply) : reply.error, !reply.ok);
}

function gotoDate(date) {
  return runCommand('goto', commandDate(date));
}

async function addBreak(ev) {
  ev.preventDefault();
  const spec = `${$('break-kind').value}:${$('break-arg').value.trim()}`;
  const reply = await command('break', `add ${spec}`);
  if (!reply.ok) {
    say(reply.error, true);
  } else {
    $('break-arg').value = '';
  }
  await showBreaks();
}

// The names the program has shown so far, offered for a breakpoint.
function offerNames() {
  const names = new Set([...view.model.threads.map((t) => t.name), ...(view.objects ?? []).map((o) => o.name)]);
  const list = $('names');
  list.replaceChildren();
  for (const name of names) {
    const option = document.createElement('option');
    option.value = name;
    list.appendChild(option);
  }
}

function wire() {
  $('run').addEventListener('click', () => runCommand('run'));
  $('pause').addEventListener('click', () => command('pause'));
  $('step').addEventListener('click', () => runCommand('step', $('step-count').value));
  $('until-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    runCommand('until', $('until-date').value.trim());
  });
  $('goto-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    runCommand('goto', $('goto-date').value.trim());
  });
  $('restart').addEventListener('click', () => runCommand('restart'));
  $('break-form').addEventListener('submit', addBreak);
  $('break-arg').addEventListener('focus', offerNames);
  $('zoom-in').addEventListener('click', () => timeline.zoom(1 / 2, view.cursor));
  $('zoom-out').addEventListener('click', () => timeline.zoom(2, view.cursor));
  $('fit').addEventListener('click', () => timeline.fit());
}

// The program is paused at its start when the page loads (or wherever
// an earlier page left it): a breakpoint list asks nothing of it.
async function start() {
  wire();
  busy(false);
  const reply = await command('break', 'list');
  if (!reply.ok) {
    say(reply.error, true);
    return;
  }
  view.date = reply.date;
  say(reply.state === 'exited' ? `exited at ${formatDate(reply.date)}` : `paused at ${formatDate(reply.date)}`);
  await refresh();
  await showBreaks();
  document.body.dataset.ready = 'yes';
}

start();
