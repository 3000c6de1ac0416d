// Reads the web dashboard's built files (scripts/web.sh) into memory for
// allotd's /ui (server/ui_assets.h, docs/web.md).
//
// Contract: `load_ui_files(dir)` reads DIR/index.html and every regular file
// of DIR/assets (not deeper), 16 MiB in all at most; an error names the
// file and why (DIR without index.html included). `default_ui_dir()` is the
// folder `ui` beside the running binary, where the build puts it.
#pragma once

#include <filesystem>
#include <memory>

#include "base/result.h"
#include "server/ui_assets.h"

namespace allot::app {

Result<std::shared_ptr<const server::UiAssets>> load_ui_files(const std::filesystem::path& dir);
std::filesystem::path default_ui_dir();

}  // namespace allot::app
