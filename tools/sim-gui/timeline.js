// SPDX-License-Identifier: MIT
// The timeline: a row per thread (running, ready, blocked and on what),
// a row of IRQs, a virtual-time axis; the wheel zooms around the
// pointer, a drag pans, a click puts the cursor, a double click asks to
// go to that date.  SVG, so that every slice is an element with its
// state and a tooltip; only what the view shows is drawn, and slices
// narrower than a pixel are left to their neighbours.

import { changeAt, describe, slices } from './model.js';
import { formatDate, formatTick, tickStep } from './time.js';

const SVG = 'http://www.w3.org/2000/svg';
const LABEL = 120; // the names' column, in pixels
const AXIS = 24;
const ROW = 22;
const BAR = 14;

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    node.setAttribute(k, v);
  }
  if (parent) {
    parent.appendChild(node);
  }
  return node;
}

function tooltip(node, text) {
  el('title', {}, node).textContent = text;
}

export class Timeline {
  // @host: the element to draw in; @onCursor(date) when the cursor
  // moves, @onGoto(date) on a double click.
  constructor(host, { onCursor, onGoto }) {
    this.host = host;
    this.onCursor = onCursor;
    this.onGoto = onGoto;
    this.model = null;
    this.cursor = 0;
    this.view = { t0: 0, t1: 1 };
    this.svg = el('svg', { class: 'timeline', role: 'img', 'aria-label': 'timeline' }, host);
    this.listen();
    new ResizeObserver(() => this.draw()).observe(host);
  }

  setModel(model) {
    const first = !this.model;
    this.model = model;
    // A paused date out of view: the whole run, as after a restart.
    if (first || model.end < this.view.t0 || model.end > this.view.t1) {
      this.fit();
    } else {
      this.draw();
    }
  }

  setCursor(date) {
    this.cursor = date;
    this.draw();
  }

  // The whole run, with a margin after the paused date for its states.
  fit() {
    const end = this.model ? this.model.end : 1;
    const start = this.model ? this.model.start : 0;
    const span = Math.max(end - start, 1000);
    this.view = { t0: start - span * 0.02, t1: end + span * 0.08 };
    this.draw();
  }

  zoom(factor, at) {
    const { t0, t1 } = this.view;
    const pivot = at ?? (t0 + t1) / 2;
    const span = Math.max((t1 - t0) * factor, 10);
    const share = (pivot - t0) / (t1 - t0);
    this.view = { t0: pivot - span * share, t1: pivot - span * share + span };
    this.draw();
  }

  width() {
    return Math.max(this.host.clientWidth - LABEL, 100);
  }

  x(date) {
    const { t0, t1 } = this.view;
    return LABEL + ((date - t0) / (t1 - t0)) * this.width();
  }

  dateAt(px) {
    const { t0, t1 } = this.view;
    return t0 + ((px - LABEL) / this.width()) * (t1 - t0);
  }

  listen() {
    const svg = this.svg;
    let drag = null;
    svg.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const at = this.dateAt(ev.offsetX);
      this.zoom(ev.deltaY < 0 ? 1 / 1.25 : 1.25, at);
    });
    svg.addEventListener('pointerdown', (ev) => {
      drag = { x: ev.clientX, view: { ...this.view }, moved: false };
      svg.setPointerCapture(ev.pointerId);
    });
    svg.addEventListener('pointermove', (ev) => {
      if (!drag) {
        return;
      }
      const dx = ev.clientX - drag.x;
      if (Math.abs(dx) > 3) {
        drag.moved = true;
      }
      if (drag.moved) {
        const shift = (dx / this.width()) * (drag.view.t1 - drag.view.t0);
        this.view = { t0: drag.view.t0 - shift, t1: drag.view.t1 - shift };
        this.draw();
      }
    });
    svg.addEventListener('pointerup', (ev) => {
      if (drag && !drag.moved && ev.offsetX >= LABEL) {
        this.onCursor(Math.round(Math.max(0, this.dateAt(ev.offsetX))));
      }
      drag = null;
    });
    svg.addEventListener('dblclick', (ev) => {
      if (ev.offsetX >= LABEL) {
        this.onGoto(Math.round(Math.max(0, this.dateAt(ev.offsetX))));
      }
    });
  }

  draw() {
    const svg = this.svg;
    svg.replaceChildren();
    if (!this.model) {
      return;
    }
    const { threads, irqs, end } = this.model;
    const rows = threads.length + 1;
    const height = AXIS + rows * ROW + 4;
    const right = LABEL + this.width();
    svg.setAttribute('width', right);
    svg.setAttribute('height', height);
    this.drawAxis(height);

    const clip = el('clipPath', { id: 'plot' }, svg);
    el('rect', { x: LABEL, y: 0, width: this.width(), height }, clip);
    const plot = el('g', { 'clip-path': 'url(#plot)' }, svg);

    this.drawIrqs(plot, irqs, AXIS);
    el('text', { x: 4, y: AXIS + BAR, class: 'row-label' }, svg).textContent = 'IRQs';
    threads.forEach((t, i) => {
      const y = AXIS + (i + 1) * ROW;
      const label = el('text', { x: 4, y: y + BAR, class: 'row-label', 'data-thread': t.name }, svg);
      label.textContent = t.name;
      const now = changeAt(t, this.cursor);
      if (now) {
        tooltip(label, `${t.name} at ${formatDate(this.cursor)}: ${describe(now)}`);
      }
      this.drawThread(plot, t, y, end);
    });
    // The paused date, and the cursor.
    el('line', { x1: this.x(end), x2: this.x(end), y1: AXIS - 6, y2: height, class: 'now' }, plot);
    const cx = this.x(this.cursor);
    el('line', { x1: cx, x2: cx, y1: AXIS - 6, y2: height, class: 'cursor' }, plot);
  }

  drawAxis(height) {
    const { t0, t1 } = this.view;
    const step = tickStep(t1 - t0, Math.max(2, Math.floor(this.width() / 110)));
    const axis = el('g', { class: 'axis' }, this.svg);
    for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
      const x = this.x(t);
      el('line', { x1: x, x2: x, y1: AXIS - 4, y2: height, class: 'grid' }, axis);
      const label = el('text', { x: x + 2, y: AXIS - 8, class: 'tick' }, axis);
      label.textContent = formatTick(t, step);
    }
  }

  drawIrqs(plot, irqs, y) {
    const { t0, t1 } = this.view;
    for (const irq of irqs) {
      if (irq.end < t0 || irq.start > t1) {
        continue;
      }
      const x = this.x(irq.start);
      const w = Math.max(this.x(irq.end) - x, 2);
      const mark = el('rect', { x, y: y + 2, width: w, height: BAR, class: 'irq', 'data-irq': irq.irq }, plot);
      tooltip(mark, `IRQ ${irq.irq} (${irq.domain}) on cpu${irq.cpu}, ${formatDate(irq.start)}`);
    }
  }

  drawThread(plot, t, y, end) {
    const { t0, t1 } = this.view;
    let lastX = -Infinity;
    for (const s of slices(t, end)) {
      if (s.state === 'dormant' || s.state === 'exited' || s.end < t0 || s.start > t1) {
        continue;
      }
      // Within the plot, give or take a pixel: a slice far out of
      // view is still one the browser must clip.
      const x = Math.max(this.x(s.start), LABEL - 1);
      // The state at the paused date is drawn past it, so that a state
      // the pause begins (a block) shows.
      const last = s.last;
      const x1 = Math.min(this.x(s.end) + (last ? 8 : 0), LABEL + this.width() + 1);
      const w = x1 - x;
      if (w < 1 && x - lastX < 1) {
        continue;
      }
      lastX = x;
      const cls = `slice ${s.state}${s.prio !== null && s.base !== null && s.prio !== s.base ? ' boosted' : ''}`;
      const rect = el(
        'rect',
        {
          x,
          y: y + (ROW - BAR) / 2,
          width: Math.max(w, 1),
          height: BAR,
          class: cls,
          'data-thread': t.name,
          'data-state': s.state,
          'data-start': s.start,
        },
        plot,
      );
      if (s.on) {
        rect.setAttribute('data-on', s.on);
      }
      // What a wait is on, where the slice has room for it.
      const label = s.state === 'blocked' ? s.on : s.state === 'running' && s.prio !== s.base ? `prio ${s.prio}` : null;
      if (label && w > label.length * 7 + 6) {
        const text = el('text', { x: x + 3, y: y + BAR + 1, class: 'slice-label' }, plot);
        text.textContent = label;
      }
      const prio = s.prio === null ? '' : `, prio ${s.prio}${s.prio !== s.base ? ` (base ${s.base})` : ''}`;
      tooltip(rect, `${t.name}: ${describe(s)}${prio}, ${formatDate(s.start)} to ${last ? 'the pause' : formatDate(s.end)}`);
    }
    for (const m of t.marks) {
      if (m.date >= t0 && m.date <= t1) {
        const x = this.x(m.date);
        const mark = el('path', { d: `M${x - 4},${y + 1} h8 l-4,5 z`, class: 'mark' }, plot);
        tooltip(mark, `mark "${m.text}" at ${formatDate(m.date)}`);
      }
    }
  }
}
