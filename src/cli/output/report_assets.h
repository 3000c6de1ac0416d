// The script and style sheet of the report of `allot simulate --trace
// --report` (html_report.h): web/src/report, which draws the charts with the
// dashboard's chart module (web/src/charts), bundled by esbuild
// (`scripts/web.sh report`) and compiled into the CLI at build time
// (src/cli/CMakeLists.txt generates report_assets.cc from the bundle, so a
// changed chart rebuilds the CLI).
//
// Contract: constant text, no I/O. script is one classic script (no imports,
// no "</script"), style one style sheet (no "</style"); each *_sha256 is the
// base64 SHA-256 of its text, for a Content-Security-Policy's 'sha256-...'
// source. All four are empty in a build without the web (ALLOT_WEB_UI=OFF).
#pragma once

#include <string_view>

namespace allot::cli {

struct ReportAssets {
  std::string_view script;
  std::string_view script_sha256;
  std::string_view style;
  std::string_view style_sha256;
};

ReportAssets report_assets();

}  // namespace allot::cli
