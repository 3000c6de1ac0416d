// Builds the dashboard into OUT (scripts/web.sh build OUT): OUT/index.html
// and OUT/assets/main-HASH.{js,css}, minified, content-hashed names (allotd
// caches them for a year), no inline script or style (the CSP forbids both).
//
// With --report (scripts/web.sh report OUT): the report of `allot simulate
// --report` instead, from src/report/main.jsx (the dashboard's chart module,
// src/charts): OUT/report.js (one script, no imports), OUT/report.css, and
// OUT/report.csp, the two files' SHA-256 in base64, one a line, for the
// report's Content-Security-Policy. The CLI compiles them in
// (src/cli/CMakeLists.txt, cmake/embed_report_assets.cmake).
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const report = process.argv[2] === '--report';
const out = process.argv[report ? 3 : 2];
if (!out) {
  console.error('usage: node build.mjs [--report] OUT');
  process.exit(2);
}

// The report: one classic script (it runs inline, at the end of the page).
async function buildReport() {
  mkdirSync(out, { recursive: true });
  await esbuild.build({
    entryPoints: { report: 'src/report/main.jsx' },
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: out,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const sha = (file) => createHash('sha256').update(readFileSync(join(out, file))).digest('base64');
  writeFileSync(join(out, 'report.csp'), `${sha('report.js')}\n${sha('report.css')}\n`);
  console.log(`web: built report.js and report.css into ${out}`);
}

if (report) {
  await buildReport();
  process.exit(0);
}
const assets = join(out, 'assets');
rmSync(assets, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const result = await esbuild.build({
  entryPoints: ['src/main.jsx'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  outdir: assets,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
const script = outputs.find((name) => name.endsWith('.js'));
const style = outputs.find((name) => name.endsWith('.css'));
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>allot</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/ui/assets/${style}">
<script type="module" src="/ui/assets/${script}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The allot dashboard needs JavaScript.</noscript>
</body>
</html>
`;
writeFileSync(join(out, 'index.html'), html);
console.log(`web: built ${script} and ${style} into ${out}`);
