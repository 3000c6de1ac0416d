// Builds the dashboard into OUT (scripts/web.sh build OUT): OUT/index.html
// and OUT/assets/main-HASH.{js,css}, minified, content-hashed names (allotd
// caches them for a year), no inline script or style (the CSP forbids both).
import * as esbuild from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const out = process.argv[2];
if (!out) {
  console.error('usage: node build.mjs OUT');
  process.exit(2);
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
