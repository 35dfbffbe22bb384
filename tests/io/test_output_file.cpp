// io::output_file on its own: an uncommitted output leaves the old file as it was and no
// temporary file; stale temporary files are removed only when their writer is gone.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "support/io/output_file.hpp"
#include "support/temp_dir_test.hpp"

namespace {

namespace fs = std::filesystem;
using corank::io::output_file;

class OutputFile : public corank::test::temp_dir_test {
 protected:
  std::string read(const fs::path& p) const {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  std::size_t entries() const {
    return std::size_t(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
};

TEST_F(OutputFile, AnUncommittedOutputLeavesTheOldFileAndNoTemporary) {
  std::ofstream(dir_ / "out") << "old";
  {
    output_file out(dir_ / "out");
    out.write("new, half written");
    EXPECT_EQ(entries(), 2u) << "the temporary file sits beside the output";
  }
  EXPECT_EQ(read(dir_ / "out"), "old");
  EXPECT_EQ(entries(), 1u);
  output_file out(dir_ / "out");
  out.write("new");
  out.commit();
  EXPECT_EQ(read(dir_ / "out"), "new");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFile, RemovesStaleTemporariesOfDeadWritersOnly) {
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);  // reaped: no process has this PID now
  const fs::path stale = dir_ / (".out.corank-" + std::to_string(dead) + "-aBc123");
  const fs::path live = dir_ / (".out.corank-" + std::to_string(::getppid()) + "-aBc123");
  const fs::path other = dir_ / (".other.corank-" + std::to_string(dead) + "-aBc123");
  for (const fs::path& p : {stale, live, other}) std::ofstream(p) << "x";
  output_file out(dir_ / "out");
  out.commit();
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live)) << "its writer may still be running";
  EXPECT_TRUE(fs::exists(other)) << "another output's";
}

}  // namespace
