// The series of a line chart (line_chart.jsx): colours, and series that
// coincide drawn once. Pure functions, tested by web/tests/charts_test.mjs.

// A colour-blind-safe palette (Okabe and Ito), cycled.
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];
// A dashed series without a colour (a reference, such as a quota) is drawn in ink.
export const REFERENCE_COLOR = '#222222';

function samePoints(a, b) {
  return a.length === b.length && a.every((p, i) => p[0] === b[i][0] && p[1] === b[i][1]);
}

// Each series with its colour (`color` when given, else the palette's by its
// place among the series, the reference colour when dashed).
export function withColors(series) {
  return series.map((s, i) => ({ ...s, color: s.color || (s.dashed ? REFERENCE_COLOR : PALETTE[i % PALETTE.length]) }));
}

// Series whose points and dash are identical merged into the first of them,
// named "first = second" with the first's colour: a series never hides under
// another. Order of first appearance kept.
export function mergeCoinciding(series) {
  const merged = [];
  for (const line of series) {
    const same = merged.find((kept) => Boolean(kept.dashed) === Boolean(line.dashed) && samePoints(kept.points, line.points));
    if (same) same.name = `${same.name} = ${line.name}`;
    else merged.push({ ...line });
  }
  return merged;
}
