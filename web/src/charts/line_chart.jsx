// LineChart: lines over linear or log axes, as a <figure class="chart">: a
// <figcaption> with the title, an <svg> (role="img", labelled by the title,
// scaled to its container's width through its viewBox, never wider than
// `width`) with one <polyline data-series="NAME"> per line, and the legend as
// an HTML list (<ul class="legend">, one <li data-series="NAME"> per line)
// that wraps instead of clipping. Series that coincide are drawn once, named
// "first = second" (series.js); earlier series are drawn wider, so that a
// line under a later one still shows at its edges; a dashed series is drawn
// dashed. Points with a coordinate that is not a number are skipped; on a log
// x axis x below logXFloor is drawn at it, and y is clamped to the y axis.
// No inline style attribute (the report's Content-Security-Policy), no fetch.
//
// spec: { title, xLabel, yLabel, logX, logXFloor, logY, yMin, yMax (<= yMin:
// from the data), width, height, series: [{ name, points: [[x, y], ...], dashed,
// color }] }. The report of `allot simulate --report` draws these
// (src/report/main.jsx); the style is charts.css.
import { chartAxes, tickLabel, ticks } from './axis.js';
import { mergeCoinciding, withColors } from './series.js';

const MARGIN = { left: 64, right: 40, top: 12, bottom: 44 };

function num(value) {
  return Number.isFinite(value) ? value.toFixed(1) : '0';
}

function Grid({ spec, x, y }) {
  const midY = (y.from + y.to) / 2;
  return (
    <g class="grid">
      {ticks(x).map((v) => (
        <>
          <line x1={num(x.map(v))} y1={num(y.to)} x2={num(x.map(v))} y2={num(y.from)} stroke="#e0e0e0" />
          <text x={num(x.map(v))} y={num(y.from + 16)} text-anchor="middle">
            {tickLabel(v)}
          </text>
        </>
      ))}
      {ticks(y).map((v) => (
        <>
          <line x1={num(x.from)} y1={num(y.map(v))} x2={num(x.to)} y2={num(y.map(v))} stroke="#e0e0e0" />
          <text x={num(x.from - 6)} y={num(y.map(v) + 4)} text-anchor="end">
            {tickLabel(v)}
          </text>
        </>
      ))}
      <rect x={num(x.from)} y={num(y.to)} width={num(x.to - x.from)} height={num(y.from - y.to)} fill="none" stroke="#444" />
      <text x={num((x.from + x.to) / 2)} y={num(spec.height - 8)} text-anchor="middle">
        {spec.xLabel}
      </text>
      <text x="16" y={num(midY)} text-anchor="middle" transform={`rotate(-90 16 ${num(midY)})`}>
        {spec.yLabel}
      </text>
    </g>
  );
}

function Line({ series, width, axes }) {
  const { x, y, clampX } = axes;
  const points = series.points
    .filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]))
    .map((p) => `${num(x.map(clampX(p[0])))},${num(y.map(Math.min(y.max, Math.max(y.min, p[1]))))}`)
    .join(' ');
  return (
    <polyline
      data-series={series.name}
      fill="none"
      stroke={series.color}
      stroke-width={series.dashed ? 1.5 : width}
      stroke-dasharray={series.dashed ? '6 4' : undefined}
      points={points}
    />
  );
}

function Legend({ series }) {
  return (
    <ul class="legend">
      {series.map((s) => (
        <li data-series={s.name}>
          <svg class="swatch" width="22" height="6" aria-hidden="true">
            <line x1="0" y1="3" x2="22" y2="3" stroke={s.color} stroke-width="3" stroke-dasharray={s.dashed ? '5 3' : undefined} />
          </svg>
          {s.name}
        </li>
      ))}
    </ul>
  );
}

export function LineChart({ spec }) {
  const full = { width: 560, height: 300, ...spec };
  const series = mergeCoinciding(withColors(spec.series));
  const area = { left: MARGIN.left, right: full.width - MARGIN.right, top: MARGIN.top, bottom: full.height - MARGIN.bottom };
  const axes = chartAxes({ ...full, series }, area);
  return (
    <figure class="chart" style={{ maxWidth: `${full.width}px` }}>
      <figcaption>{full.title}</figcaption>
      <svg
        xmlns="http://www.w3.org/2000/svg"
        viewBox={`0 0 ${full.width} ${full.height}`}
        role="img"
        aria-label={full.title}
        font-family="sans-serif"
        font-size="12"
      >
        <rect width="100%" height="100%" fill="white" />
        <Grid spec={full} x={axes.x} y={axes.y} />
        {series.map((s, i) => (
          <Line series={s} width={Math.max(1.5, 1.5 + (series.length - 1 - i))} axes={axes} />
        ))}
      </svg>
      <Legend series={series} />
    </figure>
  );
}
