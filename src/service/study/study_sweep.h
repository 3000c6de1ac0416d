// StudySweep: a trace study repeated over load and capacity factors
// (`allot simulate --trace --load-factor 1,2,4 --capacity-factor 1,1/3`):
// one policy comparison per point.
//
// Contract: plain values. Points come in the order capacity factor (outer),
// then load factor, each as the user gave them.
#pragma once

#include <vector>

#include "service/study/policy_comparison.h"

namespace allot {

struct SweepPoint {
  double load_factor = 1.0;      // inter-arrival times divided by this
  double capacity_factor = 1.0;  // pools and quotas scaled by this
  PolicyComparison comparison;
};

struct StudySweep {
  std::vector<SweepPoint> points;
};

}  // namespace allot
