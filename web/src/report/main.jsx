// The script of the report of `allot simulate --trace --report`
// (src/cli/output/html_report.h): the CLI inlines this bundle (web/build.mjs
// --report) in the page with the charts' data as
// <script type="application/json" id="report-charts">{"charts": [spec, ...]}</script>;
// each <div data-chart="K"> of the page is replaced by LineChart(charts[K])
// (charts/line_chart.jsx, the dashboard's chart module). Nothing is fetched.
import { render } from 'preact';
import { LineChart } from '../charts/line_chart.jsx';
import './report.css';

const data = JSON.parse(document.getElementById('report-charts').textContent);
for (const slot of document.querySelectorAll('[data-chart]')) {
  const spec = data.charts[Number(slot.dataset.chart)];
  if (!spec) continue;
  slot.textContent = '';
  render(<LineChart spec={spec} />, slot);
}
