// The chart module's pure parts (web/src/charts/axis.js, series.js), which
// the dashboard and the report of `allot simulate --report` share: series
// that coincide are one line naming both, colours, log and linear axes and
// their ticks, no NaN from odd data. The drawing itself is checked in
// Chromium (report_test.mjs, ui_test.mjs).
//
//   node web/tests/charts_test.mjs
import assert from 'node:assert/strict';
import { chartAxes, niceStep, tickLabel, ticks } from '../src/charts/axis.js';
import { PALETTE, REFERENCE_COLOR, mergeCoinciding, withColors } from '../src/charts/series.js';

const checks = {
  coincidingSeriesAreOneLineNamingBoth() {
    const same = [
      [1, 1],
      [2, 0.5],
    ];
    const merged = mergeCoinciding([
      { name: 'hard', color: '#111', points: same },
      { name: 'borrow', color: '#222', points: [[1, 1], [3, 0.1]] },
      { name: 'fair', color: '#333', points: same.map((p) => [...p]) },
      { name: 'nominal', color: '#444', points: same, dashed: true },
    ]);
    assert.deepEqual(merged.map((s) => s.name), ['hard = fair', 'borrow', 'nominal']); // dashed: another line
    assert.equal(merged[0].color, '#111');
  },
  mergingLeavesTheInputAlone() {
    const input = [{ name: 'a', points: [[0, 1]] }, { name: 'b', points: [[0, 1]] }];
    mergeCoinciding(input);
    assert.equal(input[0].name, 'a');
  },
  coloursComeFromThePaletteAndReferencesAreInk() {
    const colored = withColors([{ name: 'a', points: [] }, { name: 'b', points: [], color: '#123' }, { name: 'n', points: [], dashed: true }]);
    assert.deepEqual(colored.map((s) => s.color), [PALETTE[0], '#123', REFERENCE_COLOR]);
    assert.equal(withColors(Array.from({ length: 7 }, () => ({ points: [] })))[6].color, PALETTE[0]);
  },
  aLogLogChartHasPowerOfTenTicks() {
    const spec = {
      logX: true,
      logXFloor: 1,
      logY: true,
      yMin: 0.001,
      yMax: 1,
      series: [{ points: [[0, 1], [10, 0.5], [1000, 0.001]] }, { points: [[5, 1], [50, 0]] }],
    };
    const { x, y, clampX } = chartAxes(spec, { left: 64, right: 520, top: 12, bottom: 256 });
    assert.deepEqual(ticks(y), [0.001, 0.01, 0.1, 1]);
    assert.deepEqual(ticks(x), [1, 10, 100, 1000]);
    assert.deepEqual(ticks(y).map(tickLabel), ['0.001', '0.01', '0.1', '1']);
    assert.equal(clampX(0), 1); // under the floor: drawn at it
    assert.equal(x.map(1), 64);
    assert.equal(x.map(1000), 520);
    assert.equal(y.map(1), 12);
    assert.equal(y.map(0.001), 256);
  },
  aLinearAxisEndsOnANiceStep() {
    const spec = { series: [{ points: [[0, 3], [2.3, 7.2], [4.6, 1]] }] };
    const { x, y } = chartAxes(spec, { left: 0, right: 100, top: 0, bottom: 100 });
    assert.equal(x.max, 5);
    assert.equal(y.max, 8);
    assert.deepEqual(ticks(x), [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(ticks(y), [0, 2, 4, 6, 8]);
    assert.equal(niceStep(37), 10);
    assert.equal(tickLabel(2500000), '3e+6');
  },
  oddDataStillHasAxesAndNoNaN() {
    for (const spec of [
      { series: [] },
      { series: [{ points: [[NaN, 1], [Infinity, 2]] }] },
      { series: [{ points: [[3, 0], [3, 0]] }] },
      { logX: true, logY: true, yMin: 0.01, series: [{ points: [] }] },
    ]) {
      const { x, y } = chartAxes(spec, { left: 0, right: 100, top: 0, bottom: 100 });
      for (const axis of [x, y]) {
        assert.ok(axis.max > axis.min, JSON.stringify(spec));
        for (const t of ticks(axis)) assert.ok(Number.isFinite(axis.map(t)), JSON.stringify(spec));
      }
    }
  },
};

let failed = 0;
for (const [name, check] of Object.entries(checks)) {
  try {
    check();
    console.log(`ok ${name}`);
  } catch (error) {
    failed += 1;
    console.error(`FAIL ${name}: ${error.message}`);
  }
}
process.exitCode = failed ? 1 : 0;
