#include "app/ui_files.h"

#include <fstream>
#include <sstream>
#include <system_error>

namespace allot::app {
namespace {

constexpr uintmax_t kMostBytes = uintmax_t{16} << 20;

Status add_file(const std::filesystem::path& file, const std::string& name, uintmax_t& total,
                server::UiAssets& assets) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(file, error);
  if (error) return invalid_argument("cannot read " + file.string() + ": " + error.message());
  total += size;
  if (total > kMostBytes) {
    return invalid_argument("the web UI in " + file.parent_path().string() +
                            " is larger than 16 MiB");
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream body;
  body << in.rdbuf();
  if (!in.good() && !in.eof()) return invalid_argument("cannot read " + file.string());
  assets.files[name] = server::UiFile{body.str(), server::ui_content_type(name)};
  return Status::ok_status();
}

}  // namespace

Result<std::shared_ptr<const server::UiAssets>> load_ui_files(const std::filesystem::path& dir) {
  auto assets = std::make_shared<server::UiAssets>();
  uintmax_t total = 0;
  if (!std::filesystem::is_regular_file(dir / "index.html")) {
    return invalid_argument("no index.html in " + dir.string() + " (build it: scripts/web.sh)",
                            "--ui-dir");
  }
  ALLOT_RETURN_IF_ERROR(add_file(dir / "index.html", "index.html", total, *assets));
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "assets", error)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = "assets/" + entry.path().filename().string();
    ALLOT_RETURN_IF_ERROR(add_file(entry.path(), name, total, *assets));
  }
  if (error) return invalid_argument("cannot list " + (dir / "assets").string(), "--ui-dir");
  return std::shared_ptr<const server::UiAssets>(std::move(assets));
}

std::filesystem::path default_ui_dir() {
  std::error_code error;
  const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return {};
  return binary.parent_path() / "ui";
}

}  // namespace allot::app
