#include "api/status_json.h"

#include <string>

namespace allot {

nlohmann::json status_to_json(const Status& status) {
  return {{"code", std::string(error_code_name(status.code()))},
          {"message", status.message()},
          {"details", status.details()}};
}

}  // namespace allot
