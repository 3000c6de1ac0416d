// `allotd --remove-host-accounts --data-dir DATA`: removes the Unix users and
// groups that DATA's local backend made for its teams and users
// (backends/local/account_removal.h), prints what it removed, kept and could
// not remove, and exits: 0 when nothing failed, 1 otherwise. For a data
// folder being retired, and for tests and benches once their allotd stopped.
// Run it with allotd stopped on DATA: a running allotd keeps using the ids it
// looked up. Needs root.
#pragma once

#include <string>

namespace allot::app {

int remove_host_accounts(const std::string& data_dir);

}  // namespace allot::app
