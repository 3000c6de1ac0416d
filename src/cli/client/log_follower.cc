#include "cli/client/log_follower.h"

#include <cstdint>
#include <optional>
#include <string>

#include "cli/client/api_paths.h"
#include "cli/client/json_fields.h"

namespace allot::cli {
namespace {

constexpr std::string_view kOffsetHeader = "X-Allot-Log-Offset";

class LogReader {
 public:
  LogReader(ApiClient& client, const LogRequest& request, std::ostream& out)
      : client_(client), request_(request), out_(out) {}

  // Reads from the current offset and writes what came; sets `got_bytes`.
  // kNotFound when the log (or the workload) does not exist.
  Status read_once(bool& got_bytes) {
    const std::string path =
        with_query(workload_path(request_.workload.namespace_name, request_.workload.name, "logs"),
                   {{"pod", std::to_string(request_.pod)}, {"offset", std::to_string(offset_)}});
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client_.get(path));
    out_ << response.body << std::flush;
    got_bytes = !response.body.empty();
    const std::string header = response.header(kOffsetHeader);
    if (header.empty()) {
      offset_ += static_cast<int64_t>(response.body.size());
      return {};
    }
    const std::optional<int64_t> next = integer_of(nlohmann::json(header));
    if (!next || *next < 0) {
      return Status(ErrorCode::kInternal, "allotd sent a bad log offset",
                    std::string(kOffsetHeader) + ": " + header);
    }
    offset_ = *next;
    return {};
  }

  Result<std::string> phase() {
    ALLOT_ASSIGN_OR_RETURN(
        ApiResponse response,
        client_.get(workload_path(request_.workload.namespace_name, request_.workload.name)));
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json workload, response.json());
    return text_at(workload, {"status", "phase"});
  }

  Status drain() {
    bool got_bytes = true;
    while (got_bytes) {
      const Status read = read_once(got_bytes);
      if (read.code() == ErrorCode::kNotFound) return {};  // a workload that never ran
      ALLOT_RETURN_IF_ERROR(read);
    }
    return {};
  }

 private:
  ApiClient& client_;
  const LogRequest& request_;
  std::ostream& out_;
  int64_t offset_ = 0;
};

}  // namespace

bool is_final_phase(std::string_view phase) {
  return phase == "Succeeded" || phase == "Failed" || phase == "Cancelled";
}

Status stream_logs(ApiClient& client, const LogRequest& request, std::ostream& out,
                   const Waiter& wait) {
  LogReader reader(client, request, out);
  while (true) {
    bool got_bytes = false;
    Status read = reader.read_once(got_bytes);
    if (!request.follow) return read;
    if (!read.ok() && read.code() != ErrorCode::kNotFound) return read;
    if (got_bytes) continue;
    ALLOT_ASSIGN_OR_RETURN(const std::string phase, reader.phase());
    if (is_final_phase(phase)) return reader.drain();
    wait(request.poll_interval);
  }
}

}  // namespace allot::cli
