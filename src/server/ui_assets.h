// UiAssets: the web dashboard's built files (web/, scripts/web.sh), held in
// memory and served by allotd at /ui (ui_routes.cc, docs/web.md).
//
// Contract: plain values. `files` maps a path under /ui/ ("index.html",
// "assets/main-3FJ2K7QX.js") to its bytes and Content-Type; names under
// "assets/" carry a hash of their content, so they never change and are
// cached for a year; everything else is revalidated on each use. The app
// reads them once at start (app/ui_files.h); the server never reads a file.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace allot::server {

struct UiFile {
  std::string body;
  std::string content_type;
};

struct UiAssets {
  std::map<std::string, UiFile, std::less<>> files;
};

// The Content-Type of a file by its extension (application/octet-stream when
// unknown).
std::string ui_content_type(std::string_view name);

}  // namespace allot::server
