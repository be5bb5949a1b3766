// SPDX-License-Identifier: MIT
// The runner's events replayed into what each thread did when: its
// states over time (running, ready, blocked and on what), its
// priority, the IRQs taken and the marks; what the timeline draws and
// the thread panel shows at the cursor.

// Each thread's state changes, in date order; a change at the same date
// as the one before it replaces nothing: the last one of a date is the
// state "at" that date, as the runner pauses after its event.
function thread(model, name, date) {
  let t = model.byName.get(name);
  if (!t) {
    t = {
      name,
      changes: [],
      marks: [],
      state: 'dormant',
      on: null,
      cpu: 0,
      prio: null,
      base: null,
    };
    model.byName.set(name, t);
    model.threads.push(t);
    change(t, date, 'dormant', null);
  }
  return t;
}

function change(t, date, state, on) {
  t.state = state;
  t.on = on;
  t.changes.push({ date, state, on, cpu: t.cpu, prio: t.prio, base: t.base });
}

// Priority and CPU changes alter the record without a change of state.
function touch(t, date) {
  change(t, date, t.state, t.on);
}

const handlers = {
  create(m, e) {
    const t = thread(m, e.thread, e.date);
    t.prio = t.base = e.arg;
    touch(t, e.date);
  },
  start(m, e) {
    thread(m, e.thread, e.date);
  },
  ready(m, e) {
    const t = thread(m, e.thread, e.date);
    t.cpu = e.cpu;
    change(t, e.date, 'ready', null);
  },
  switch(m, e) {
    // The thread switched out is still ready when it was preempted; a
    // block or an exit came before the switch otherwise.
    if (e.object) {
      const prev = thread(m, e.object, e.date);
      if (prev.state === 'running') {
        change(prev, e.date, 'ready', null);
      }
    }
    const next = thread(m, e.thread, e.date);
    next.cpu = e.cpu;
    change(next, e.date, 'running', null);
  },
  block(m, e) {
    change(thread(m, e.thread, e.date), e.date, 'blocked', e.object);
  },
  wake(m, e) {
    change(thread(m, e.thread, e.date), e.date, 'ready', null);
  },
  timeout(m, e) {
    change(thread(m, e.thread, e.date), e.date, 'ready', null);
  },
  suspend(m, e) {
    change(thread(m, e.thread, e.date), e.date, 'blocked', 'suspended');
  },
  resume(m, e) {
    change(thread(m, e.thread, e.date), e.date, 'ready', null);
  },
  exit(m, e) {
    change(thread(m, e.thread, e.date), e.date, 'exited', null);
  },
  prio(m, e) {
    const t = thread(m, e.thread, e.date);
    t.prio = e.arg;
    touch(t, e.date);
  },
  migrate(m, e) {
    const t = thread(m, e.thread, e.date);
    t.cpu = e.arg;
    touch(t, e.date);
  },
  irq(m, e) {
    m.irqs.push({ start: e.date, end: null, domain: e.thread, irq: e.arg, cpu: e.cpu });
  },
  irq_exit(m, e) {
    for (let i = m.irqs.length - 1; i >= 0; i--) {
      const irq = m.irqs[i];
      if (irq.end === null && irq.irq === e.arg && irq.cpu === e.cpu) {
        irq.end = e.date;
        break;
      }
    }
  },
  mark(m, e) {
    thread(m, e.thread, e.date).marks.push({ date: e.date, text: e.object });
  },
};

// @events: the runner's, oldest first; @end: the paused date; @names:
// the threads in the runner's order (creation), rows in that order.
export function buildModel(events, end, names = []) {
  const model = { threads: [], byName: new Map(), irqs: [], start: 0, end };
  if (events.length) {
    model.start = events[0].date;
  }
  for (const name of names) {
    thread(model, name, model.start);
  }
  for (const e of events) {
    const handle = handlers[e.kind];
    if (handle && (e.thread || e.kind === 'irq' || e.kind === 'irq_exit')) {
      handle(model, e);
    }
  }
  for (const irq of model.irqs) {
    if (irq.end === null) {
      irq.end = end;
    }
  }
  return model;
}

// The last change of @t at or before @date, or null (not yet created).
export function changeAt(t, date) {
  let lo = 0;
  let hi = t.changes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t.changes[mid].date <= date) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo ? t.changes[lo - 1] : null;
}

// Each thread's state from one change to the next, the last up to the
// model's end: [{start, end, last, state, on, cpu, prio, base}], last
// true for the state the thread is in at the end.
export function slices(t, end) {
  return t.changes.map((c, i) => {
    const last = i + 1 === t.changes.length;
    return { ...c, start: c.date, end: last ? end : t.changes[i + 1].date, last };
  });
}

// "blocked on mutex", "running on cpu0", "ready".
export function describe(c) {
  if (c.state === 'blocked') {
    return c.on ? `blocked on ${c.on}` : 'blocked';
  }
  if (c.state === 'running') {
    return `running on cpu${c.cpu}`;
  }
  return c.state;
}
