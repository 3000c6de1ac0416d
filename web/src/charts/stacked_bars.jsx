// StackedBars: a stacked bar chart over time, drawn as SVG without a chart
// library, for the dashboard's views (Costs, Teams, Hardware: usage_chart.jsx,
// hardware_chart.jsx). Part of the one chart module (this folder) the
// dashboard and the report of `allot simulate --report` share.
//
// A stacked bar per point, bottom up as `stacks` ({ key, cls, name }), and a
// line per `lines` ({ key, cls, name, steps }) through the points where its value
// is not null (null: not known there, "not known" in the bar's title), as
// steps across each point's width with `steps` (a value in force over the
// bucket), else point to point at their middles; a point with `missing` > 0 has a
// band behind its bar (class bar-missing: allotd was down for that part).
// `every`: an axis label every so many points; `top`: the value at the top
// (the largest total when not given), written in the top right corner.
export function StackedBars({ points, stacks, lines = [], label, every = 1, format, top }) {
  const width = 600;
  const height = 160;
  const pad = 16; // room for the scale above the bars
  const value = (p, key) => Number(p[key]) || 0;
  const most = top || Math.max(1e-9, ...points.map((p) => Math.max(stacks.reduce((sum, s) => sum + value(p, s.key), 0), ...lines.map((l) => value(p, l.key)))));
  const step = width / Math.max(1, points.length);
  const y = (v) => pad + height - (v / most) * height;
  return (
    <svg viewBox={`0 0 ${width} ${pad + height + 20}`} class="chart" role="img" aria-label={label}>
      {points.map((p, i) => {
        const x = i * step + step * 0.1;
        const w = step * 0.8;
        const told = (s) => (s.name ? `${format(p[s.key])} ${s.name}` : format(p[s.key]));
        const unknown = (l) => p[l.key] === null || p[l.key] === undefined;
        const parts = [...stacks.map(told), ...lines.map((l) => (unknown(l) ? `${l.name || 'value'} not known` : told(l)))];
        if (p.missing > 0) parts.push(`no data for ${Math.round(p.missing * 100)} % of it (allotd was down)`);
        let below = 0;
        return (
          <g data-missing={p.missing > 0 ? 'true' : undefined}>
            <title>{`${p.label}: ${parts.join(', ')}`}</title>
            {p.missing > 0 ? <rect class="bar-missing" x={i * step} y={pad} width={step} height={height} /> : null}
            {stacks.map((s) => {
              const h = (value(p, s.key) / most) * height;
              below += h;
              return <rect class={s.cls} x={x} y={pad + height - below} width={w} height={h} />;
            })}
            {i % every === 0 ? (
              <text x={i ? x + w / 2 : x} y={pad + height + 14} text-anchor={i ? 'middle' : 'start'} class="axis">
                {p.label}
              </text>
            ) : null}
          </g>
        );
      })}
      <text x={width} y={10} text-anchor="end" class="axis scale">
        {format(most)} at the top
      </text>
      {lines.map((l) => {
        const xs = (i) => (l.steps ? [i * step, (i + 1) * step] : [i * step + step / 2]);
        const at = points.flatMap((p, i) => (p[l.key] === null || p[l.key] === undefined ? [] : [xs(i).map((x) => `${x},${y(value(p, l.key))}`).join(' ')]));
        return at.length ? <polyline class={l.cls} points={at.join(' ')} data-points={at.length} /> : null;
      })}
    </svg>
  );
}

