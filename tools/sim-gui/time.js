// SPDX-License-Identifier: MIT
// Virtual dates: integers of nanoseconds, shown and read with a unit.

const UNITS = [
  ['s', 1e9],
  ['ms', 1e6],
  ['us', 1e3],
  ['ns', 1],
];

// "1.500 ms": the largest unit the value reaches, three decimals.
export function formatDate(ns) {
  for (const [name, scale] of UNITS) {
    if (Math.abs(ns) >= scale || scale === 1) {
      return scale === 1 ? `${ns} ns` : `${(ns / scale).toFixed(3)} ${name}`;
    }
  }
  return `${ns} ns`;
}

// A tick's label: as short as the step between ticks allows.
export function formatTick(ns, step) {
  for (const [name, scale] of UNITS) {
    if (step >= scale || scale === 1) {
      const digits = Math.max(0, Math.ceil(-Math.log10(step / scale) - 1e-9));
      return `${(ns / scale).toFixed(digits)} ${name}`;
    }
  }
  return `${ns} ns`;
}

// The date as the runner's commands take it: whole nanoseconds.
export function commandDate(ns) {
  return `${Math.max(0, Math.round(ns))}ns`;
}

// 1, 2 or 5 times a power of ten: the step giving about @count ticks.
export function tickStep(span, count) {
  const raw = Math.max(span / count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) {
    if (m * power >= raw) {
      return m * power;
    }
  }
  return 10 * power;
}
