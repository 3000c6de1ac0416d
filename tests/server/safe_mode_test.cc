// Issue 10, crash 2: a stored state that cannot load used to end allotd at
// every start (a crash loop). It must stay up, serving, and say why.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "allotd_process.h"
#include "api_http.h"
#include "store/sqlite/sqlite_store.h"

namespace allot::server_test {
namespace {

TEST(SafeModeTest, AStoredStateThatCannotLoadLeavesAllotdUpSayingWhy) {
  AllotdProcess allotd;
  std::filesystem::create_directories(allotd.data_dir());
  {
    auto store = SqliteStore::open((allotd.data_dir() / "allot.db").string());
    ASSERT_TRUE(store.ok()) << store.status().to_string();
    WriteBatch batch;
    batch.put_objects.push_back({"Team", "broken", "{not json"});
    ASSERT_TRUE((*store)->commit(std::move(batch)).ok());
  }

  ASSERT_EQ(allotd.start(), "") << "allotd did not come up in safe mode";
  const ApiHttp api(allotd);

  EXPECT_EQ(api.get("/healthz").status, 200) << "alive: no supervisor restarts it in a loop";
  const Reply ready = api.get("/readyz");
  EXPECT_EQ(ready.status, 503);
  EXPECT_EQ(ready.json["status"], "safe mode");
  EXPECT_NE(ready.json["reason"].get<std::string>().find("Team 'broken' is not JSON"),
            std::string::npos)
      << ready.body;
  const Reply list = api.get("/api/v1/workloads");
  EXPECT_EQ(list.status, 503);
  EXPECT_EQ(list.json["code"], "unavailable");
  EXPECT_NE(list.json["message"].get<std::string>().find("safe mode"), std::string::npos);
  EXPECT_EQ(api.post("/api/v1/apply", "kind: Cohort\n").status, 503) << "nothing is changed";
  EXPECT_TRUE(allotd.running());
}

}  // namespace
}  // namespace allot::server_test
