// Outputs of the corank CLI: devices, FIFOs, /dev/stdout and symbolic links are written through,
// never replaced; write errors (a full device) fail the run; modes follow the umask or the
// replaced file; bad names fail before the work; signals leave no temporary file, and one left
// by SIGKILL is removed by the next run on that output.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <utility>

#include "cli/cli_fixture.hpp"

namespace {

using namespace corank::test;  // Cli, run_cli, run_shell, result

bool is_root() { return ::geteuid() == 0; }

/// A character device like /dev/null (1,3) or /dev/full (1,7) in the test's folder, so that a
/// regression replaces a copy, never the machine's own node. Root only (mknod).
bool make_device(const std::string& path, unsigned minor) {
  return ::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0;
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  ::stat(path.c_str(), &st);
  return st.st_mode & 07777;
}

bool is_char_device(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

TEST_F(Cli, WritesThroughADeviceNodeWithoutReplacingIt) {
  if (!is_root()) GTEST_SKIP() << "mknod needs root (and only root could replace a device)";
  ASSERT_TRUE(make_device(path("null"), 3));
  const result r = run_cli("gen -n 100 -o " + path("null"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(is_char_device(path("null"))) << "the device node was replaced";
  EXPECT_EQ(files(), std::vector<std::string>{"null"});
}

TEST_F(Cli, AFullDeviceFailsTheRunAndStaysADevice) {
  std::string full = "/dev/full";
  if (is_root()) {  // as root a regression would replace the node: use a copy of it
    full = path("full");
    ASSERT_TRUE(make_device(full, 7));
  }
  for (const std::string& args :
       {"gen -n 100000 -o " + full, "gen matrix --like jonheart -o " + full,
        "bench merge --backend cpu --quiet --sizes 1K --threads 2 --json " + full,
        "bench merge --backend cpu --quiet --sizes 1K --threads 2 --csv " + full}) {
    const result r = run_cli(args);
    EXPECT_NE(r.exit_code, 0) << args << ": " << r.output;
    EXPECT_NE(r.output.find("cannot write '" + full + "': No space left on device"),
              std::string::npos)
        << args << ": " << r.output;
    EXPECT_TRUE(is_char_device(full));
  }
}

TEST_F(Cli, AFullStandardOutputFailsTheRun) {
  const result r =
      run_shell(std::string(CORANK_CLI) + " gen -n 10 -o " + path("a.bin") + " 2>&1 >/dev/full");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("cannot write the standard output"), std::string::npos) << r.output;
}

TEST_F(Cli, WritesToAFifo) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  // A reader that is there before the writer, without blocking: the output (under 64 KiB) fits in
  // the FIFO's buffer, so the run ends before it is read.
  const int reader = ::open(path("fifo").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  const result r = run_cli("gen -n 1000 -f text -o " + path("fifo"));
  std::string received;
  char buffer[4096];
  for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;) received.append(buffer, n);
  ::close(reader);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(std::count(received.begin(), received.end(), '\n'), 1000);
  struct stat st {};
  ASSERT_EQ(::lstat(path("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
}

TEST_F(Cli, WritesToStandardOutputWithTheMessageOnStderr) {
  const result r = run_shell(std::string(CORANK_CLI) + " gen -n 10 -o /dev/stdout 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.size(), 40u) << "stdout holds exactly the 10 keys";
}

TEST_F(Cli, ASymbolicLinkIsWrittenThroughAndKept) {
  write_text("target.bin", "old");
  fs::create_symlink("target.bin", path("link.bin"));
  const result r = run_cli("gen -n 10 -o " + path("link.bin"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::is_symlink(path("link.bin")));
  EXPECT_EQ(fs::file_size(path("target.bin")), 40u);
  EXPECT_EQ(files(), (std::vector<std::string>{"link.bin", "target.bin"}));
}

TEST_F(Cli, NewFilesFollowTheUmaskAndReplacedFilesKeepTheirMode) {
  const result r = run_shell("umask 027; " + std::string(CORANK_CLI) + " gen -n 10 -o " +
                             path("new.bin") + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(mode_of(path("new.bin")), mode_t(0640));
  write_text("kept.bin", "old");
  ::chmod(path("kept.bin").c_str(), 0604);
  ASSERT_EQ(run_cli("gen -n 10 -o " + path("kept.bin")).exit_code, 0);
  EXPECT_EQ(mode_of(path("kept.bin")), mode_t(0604));
  EXPECT_EQ(fs::file_size(path("kept.bin")), 40u);
}

TEST_F(Cli, RefusesOutputsThatCannotBeFilesBeforeTheWork) {
  write("a.bin", std::vector<std::uint32_t>{1, 2});
  expect_failure("sort " + path("a.bin") + " -o " + path("."), "names a folder, not a file");
  expect_failure("sort " + path("a.bin") + " -o ''", "no output file name given");
  expect_failure("gen -o ''", "no output file name given");
  fs::create_directory(path("sub"));
  expect_failure("sort " + path("a.bin") + " -o " + path("sub"), "it is a directory");
  expect_failure("sort " + path("a.bin") + " -o " + path("missing/x.bin"),
                 "the folder '" + path("missing") + "' does not exist");
  // bench: the folder is checked before the measurements (no table was printed).
  const result r =
      run_cli("bench merge --backend cpu --sizes 1K --threads 2 --json " + path("missing/m.json"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("does not exist"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("memcpy"), std::string::npos) << "the benchmark ran first: " << r.output;
}

TEST_F(Cli, WritesOutputsWhoseNamesAreNearTheLimit) {
  const std::string name(250, 'n');
  const result r = run_cli("gen -n 10 -o " + path(name));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(files(), std::vector<std::string>{name});
}

/// Starts corank with `args` (no shell), with the default action for every signal we send.
pid_t spawn(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::signal(sig, SIG_DFL);
    const int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, STDOUT_FILENO);
    ::dup2(devnull, STDERR_FILENO);
    std::vector<char*> argv{const_cast<char*>(CORANK_CLI)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(CORANK_CLI, argv.data());
    ::_exit(127);
  }
  return pid;
}

/// Names in the folder that start with `prefix`.
std::vector<std::string> named(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0)
      out.push_back(e.path().filename().string());
  return out;
}

/// Runs `sort FIFO -o out.bin`, which opens its output, then blocks reading the FIFO (held open
/// here, never written): a run caught in the middle. Returns its pid once its temporary file
/// exists.
pid_t start_a_blocked_sort(const Cli& test, const fs::path& dir, int& fifo_fd) {
  const std::string fifo = (dir / "in.fifo").string();
  ::mkfifo(fifo.c_str(), 0600);
  fifo_fd = ::open(fifo.c_str(), O_RDWR);  // a writer that never writes: the reader blocks
  const pid_t pid = spawn({"sort", fifo, "-o", (dir / "out.bin").string()});
  for (int i = 0; i < 500 && named(dir, ".out.bin.corank-").empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  (void)test;
  return pid;
}

TEST_F(Cli, ASignalLeavesNoTemporaryFileAndTheOldOutputIntact) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    write_text("out.bin", "precious");
    int fifo_fd = -1;
    const pid_t pid = start_a_blocked_sort(*this, dir_, fifo_fd);
    const bool opened = named(dir_, ".out.bin.corank-").size() == 1;
    ::kill(pid, opened ? sig : SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(fifo_fd);
    ASSERT_TRUE(opened) << "the run did not open its output before reading its input";
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig)
        << "signal " << sig << ": the exit status must say the signal";
    EXPECT_TRUE(named(dir_, ".out.bin.corank-").empty()) << "signal " << sig;
    EXPECT_EQ(read_file("out.bin"), "precious");
    fs::remove(path("in.fifo"));
  }
}

TEST_F(Cli, TheNextRunRemovesATemporaryFileLeftBySigkill) {
  int fifo_fd = -1;
  const pid_t pid = start_a_blocked_sort(*this, dir_, fifo_fd);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  ::close(fifo_fd);
  const auto stale = named(dir_, ".out.bin.corank-");
  ASSERT_EQ(stale.size(), 1u) << "SIGKILL cannot be caught: its temporary file stays";
  const result r = run_cli("gen -n 10 -o " + path("out.bin"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("removed '" + path(stale.front()) + "', left by an interrupted run"),
            std::string::npos)
      << r.output;
  EXPECT_TRUE(named(dir_, ".out.bin.corank-").empty());
}

}  // namespace
