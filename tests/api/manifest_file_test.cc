// load_manifest_file(): reading manifests from disk, and the errors that name the file.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "api/manifest_parser.h"

namespace allot {
namespace {

class ManifestFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("allot_api_test_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }

  std::filesystem::path dir_;
};

TEST_F(ManifestFile, LoadsDocumentsFromAFile) {
  const std::string path =
      write("org.yaml", "apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: org}\n");
  Result<ManifestBundle> bundle = load_manifest_file(path);
  ASSERT_TRUE(bundle.ok()) << bundle.status().to_string();
  ASSERT_EQ(bundle->policy.cohorts.size(), 1u);
  EXPECT_EQ(bundle->policy.cohorts[0].meta.name, "org");
}

TEST_F(ManifestFile, ErrorsInAFileNameTheFile) {
  const std::string path = write(
      "bad.yaml", "apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: org}\nspec: {x: 1}\n");
  Result<ManifestBundle> bundle = load_manifest_file(path);
  ASSERT_FALSE(bundle.ok());
  EXPECT_EQ(bundle.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(bundle.status().details(), path + ": document 1 (Cohort/org): spec.x");
}

TEST_F(ManifestFile, MissingFileIsNotFoundAndNamesThePath) {
  const std::string path = (dir_ / "absent.yaml").string();
  Result<ManifestBundle> bundle = load_manifest_file(path);
  ASSERT_FALSE(bundle.ok());
  EXPECT_EQ(bundle.status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(bundle.status().details(), path);
}

TEST_F(ManifestFile, DirectoryIsNotAManifest) {
  Result<ManifestBundle> bundle = load_manifest_file(dir_.string());
  ASSERT_FALSE(bundle.ok());
  EXPECT_EQ(bundle.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(bundle.status().details(), dir_.string());
}

TEST_F(ManifestFile, EmptyFileIsAnEmptyBundle) {
  Result<ManifestBundle> bundle = load_manifest_file(write("empty.yaml", ""));
  ASSERT_TRUE(bundle.ok()) << bundle.status().to_string();
  EXPECT_EQ(bundle->policy, Policy{});
}

}  // namespace
}  // namespace allot
