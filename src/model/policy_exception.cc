#include "model/policy_exception.h"

namespace allot {

std::string_view exception_target_name(ExceptionTarget target) {
  switch (target) {
    case ExceptionTarget::kQuota: return "quota";
    case ExceptionTarget::kPriorityClass: return "priorityClass";
    case ExceptionTarget::kWorkloadKind: return "workloadKind";
    case ExceptionTarget::kDataClassification: return "dataClassification";
  }
  return "unknown";
}

}  // namespace allot
