// SPDX-License-Identifier: MIT
// The event log, filtered by kind and by a thread's or object's name;
// a row's click puts the cursor at its date.  At most LIMIT rows are
// drawn, those nearest the cursor, so that 65536 events stay usable.

import { formatDate } from './time.js';

const LIMIT = 1000;

function text(e) {
  if (e.kind === 'switch') {
    return e.object ? `${e.thread} (from ${e.object})` : e.thread;
  }
  return [e.thread, e.object, e.arg].filter((v) => v !== null && v !== undefined).join(' ');
}

export class EventLog {
  constructor(host, { onCursor }) {
    this.host = host;
    this.onCursor = onCursor;
    this.events = [];
    this.dropped = 0;
    this.cursor = 0;
    this.hidden = new Set();
    this.kinds = host.querySelector('#log-kinds');
    this.filter = host.querySelector('#log-filter');
    this.count = host.querySelector('#log-count');
    this.body = host.querySelector('#log-body');
    this.filter.addEventListener('input', () => this.draw());
  }

  // @dropped: how many older events the runner no longer keeps.
  setEvents(events, dropped) {
    this.events = events;
    this.dropped = dropped;
    this.drawKinds();
    this.draw();
  }

  setCursor(date) {
    this.cursor = date;
    this.draw();
  }

  // One box per kind present, all ticked but those the user unticked.
  drawKinds() {
    const kinds = [...new Set(this.events.map((e) => e.kind))].sort();
    this.kinds.replaceChildren();
    for (const kind of kinds) {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = kind;
      box.checked = !this.hidden.has(kind);
      box.addEventListener('change', () => {
        if (box.checked) {
          this.hidden.delete(kind);
        } else {
          this.hidden.add(kind);
        }
        this.draw();
      });
      label.append(box, ` ${kind}`);
      this.kinds.appendChild(label);
    }
  }

  matching() {
    const needle = this.filter.value.trim().toLowerCase();
    return this.events.filter(
      (e) =>
        !this.hidden.has(e.kind) &&
        (!needle ||
          String(e.thread ?? '').toLowerCase().includes(needle) ||
          String(e.object ?? '').toLowerCase().includes(needle)),
    );
  }

  draw() {
    const rows = this.matching();
    // The window of LIMIT rows that ends just after the cursor.
    let at = rows.findIndex((e) => e.date > this.cursor);
    if (at < 0) {
      at = rows.length;
    }
    const first = Math.max(0, Math.min(at - LIMIT / 2, rows.length - LIMIT));
    const shown = rows.slice(first, first + LIMIT);
    this.count.textContent =
      (shown.length < rows.length
        ? `${rows.length} of ${this.events.length} events match; ${first + 1} to ${first + shown.length} shown`
        : `${rows.length} of ${this.events.length} events`) +
      (this.dropped ? `; ${this.dropped} older ones no longer kept` : '');
    this.body.replaceChildren();
    let current = null;
    for (const e of shown) {
      const row = this.body.insertRow();
      row.dataset.kind = e.kind;
      if (e.date === this.cursor) {
        row.className = 'at-cursor';
        current = row;
      }
      row.insertCell().textContent = formatDate(e.date);
      row.insertCell().textContent = `cpu${e.cpu}`;
      row.insertCell().textContent = e.kind;
      row.insertCell().textContent = text(e);
      row.addEventListener('click', () => this.onCursor(e.date));
    }
    // The cursor's rows in the middle of the log's own box; the page
    // itself stays where the user is.
    if (current) {
      const box = this.body.closest('.scroll');
      box.scrollTop += current.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 2;
    }
  }
}
