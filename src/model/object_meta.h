// ObjectMeta: the `metadata` of every allot manifest (name, namespace, labels).
#pragma once

#include <map>
#include <string>

namespace allot {

struct ObjectMeta {
  std::string name;
  std::string namespace_name;  // empty for cluster-scoped kinds
  std::map<std::string, std::string> labels;

  friend bool operator==(const ObjectMeta&, const ObjectMeta&) = default;
};

}  // namespace allot
