// Axes of the line chart (line_chart.jsx): a linear or log scale from data
// values to pixels, its ticks and their labels. Pure functions, no DOM, so
// that node can test them (web/tests/charts_test.mjs).

// 1, 2 or 5 times a power of ten, near range / 5.
export function niceStep(range) {
  const raw = range / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5]) if (raw <= factor * power) return factor * power;
  return 10 * power;
}

// An axis from min to max (log: both > 0) drawn from pixel `from` to `to`.
export function makeAxis(min, max, log, from, to) {
  const f = log ? Math.log10 : (v) => v;
  const lo = f(min);
  const hi = f(max);
  return {
    min,
    max,
    log,
    from,
    to,
    map: (value) => from + ((f(value) - lo) / (hi - lo)) * (to - from),
  };
}

// The tick values: powers of ten on a log axis, nice steps on a linear one.
export function ticks(axis) {
  const values = [];
  if (axis.log) {
    for (let v = 10 ** Math.ceil(Math.log10(axis.min) - 1e-9); v <= axis.max * 1.0001; v *= 10) {
      values.push(Number(v.toPrecision(12)));
    }
    return values;
  }
  const step = niceStep(axis.max - axis.min);
  for (let v = Math.ceil(axis.min / step) * step; v <= axis.max + step * 1e-9; v += step) {
    values.push(Math.abs(v) < step * 1e-9 ? 0 : Number(v.toPrecision(12)));
  }
  return values;
}

// "0.001", "250", "1e+6": short, like C's %g.
export function tickLabel(value) {
  if (Math.abs(value) >= 1e6) return value.toExponential(0);
  return String(Number(value.toPrecision(6)));
}

function finite(point) {
  return Number.isFinite(point[0]) && Number.isFinite(point[1]);
}

// The x and y axes of a chart spec (line_chart.jsx) inside its plot area:
// the data's extent, widened so that a flat or empty chart still has axes;
// on a log x axis values below logXFloor are drawn at it.
export function chartAxes(spec, area) {
  const clampX = (x) => (spec.logX ? Math.max(x, spec.logXFloor ?? 1) : x);
  const yMin = spec.yMin ?? 0;
  let xMin = Infinity;
  let xMax = -Infinity;
  let yMax = spec.logY ? 0 : yMin;
  for (const series of spec.series) {
    for (const point of series.points.filter(finite)) {
      xMin = Math.min(xMin, clampX(point[0]));
      xMax = Math.max(xMax, clampX(point[0]));
      yMax = Math.max(yMax, point[1]);
    }
  }
  if (!Number.isFinite(xMin)) xMin = xMax = spec.logX ? (spec.logXFloor ?? 1) : 0;
  if (xMax <= xMin) xMax = spec.logX ? xMin * 10 : xMin + 1;
  if ((spec.yMax ?? 0) > yMin) yMax = spec.yMax;
  if (yMax <= yMin) yMax = spec.logY ? yMin * 10 : yMin + 1;
  if (!spec.logX) xMax = Math.ceil(xMax / niceStep(xMax - xMin)) * niceStep(xMax - xMin);
  if (spec.logY) yMax = 10 ** Math.ceil(Math.log10(yMax) - 1e-9);
  else if (!((spec.yMax ?? 0) > yMin)) yMax = Math.ceil(yMax / niceStep(yMax - yMin)) * niceStep(yMax - yMin);
  return {
    x: makeAxis(xMin, xMax, spec.logX, area.left, area.right),
    y: makeAxis(yMin, yMax, spec.logY, area.bottom, area.top),
    clampX,
  };
}
