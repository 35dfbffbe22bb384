#include "support/io/output_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "support/io/temp_cleanup.hpp"

namespace corank::io {
namespace {

namespace fs = std::filesystem;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

/// "/dev/stdout" leads to "/proc/self/fd/1", "/dev/fd/3" is "/proc/self/fd/3": such a path
/// names a descriptor this process holds (its target may be a pipe with no name). Returns the
/// descriptor, or -1.
int descriptor_named_by(const fs::path& p) {
  const std::string dir = p.parent_path().string(), name = p.filename().string();
  if (dir != "/dev/fd" && dir != "/proc/self/fd" &&
      dir != "/proc/" + std::to_string(::getpid()) + "/fd")
    return -1;
  if (name.empty() || name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  return std::stoi(name);
}

struct resolved_path {
  fs::path target;  // the last component's symbolic links followed
  int descriptor = -1;
};

/// Follows the symbolic links of the last component (links among the folders need no care: the
/// temporary file goes in the target's folder either way), so that the link is kept and its
/// target replaced.
resolved_path resolve(const fs::path& path) {
  resolved_path r{path};
  for (int hop = 0; hop < 40; ++hop) {
    r.descriptor = descriptor_named_by(r.target);
    if (r.descriptor >= 0) return r;
    struct stat st {};
    if (::lstat(r.target.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return r;
    std::error_code ec;
    const fs::path link = fs::read_symlink(r.target, ec);
    if (ec) return r;
    r.target = link.is_absolute() ? link : r.target.parent_path() / link;
  }
  throw file_error("cannot write " + quoted(path) + ": too many levels of symbolic links");
}

mode_t current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

/// The temporary file's name stem: the output's name, cut short (with a hash of the whole name
/// to keep it apart from its neighbours) when ".NAME.corank-PID-XXXXXX" would pass NAME_MAX.
std::string temp_stem(const std::string& name) {
  constexpr std::size_t decoration = 1 + 8 + 10 + 1 + 6;  // "." ".corank-" pid "-" XXXXXX
  if (name.size() + decoration <= NAME_MAX) return name;
  std::uint32_t hash = 2166136261u;  // FNV-1a
  for (unsigned char c : name) hash = (hash ^ c) * 16777619u;
  char hex[10];
  std::snprintf(hex, sizeof hex, "~%08x", hash);
  return name.substr(0, NAME_MAX - decoration - 9) + hex;
}

/// Removes the temporary files of `prefix` (".NAME.corank-") in `dir` whose run is gone: their
/// name holds the PID that wrote them (".NAME.corank-PID-XXXXXX"), and no process has it now.
void remove_stale_temps(const fs::path& dir, const std::string& prefix) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;  // an unreadable folder can still be writable: nothing to clean then
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    const std::size_t dash = rest.find('-');
    if (dash == 0 || dash > 10 || rest.size() != dash + 7 ||
        rest.find_first_not_of("0123456789") != dash)
      continue;
    const long pid = std::stol(rest.substr(0, dash));
    if (pid == ::getpid() || ::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;
    const fs::path stale = dir / name;
    if (::unlink(stale.c_str()) == 0)
      std::fprintf(stderr, "corank: removed %s, left by an interrupted run (pid %ld)\n",
                   quoted(stale).c_str(), pid);
  }
  ::closedir(d);
}

bool same_file(int fd_a, int fd_b) {
  struct stat a {
  }, b{};
  return ::fstat(fd_a, &a) == 0 && ::fstat(fd_b, &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

}  // namespace

output_file::output_file(const fs::path& path) : path_(path) {
  if (path.empty()) throw file_error("no output file name given (an empty name)");
  const std::string text = path.string();
  if (text.back() == '/' || path.filename() == "." || path.filename() == "..")
    throw file_error("cannot write " + quoted(path) + ": it names a folder, not a file");
  const resolved_path r = resolve(path);
  target_ = r.target;

  int fd = -1;
  if (r.descriptor >= 0) {
    fd = ::fcntl(r.descriptor, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) fail("cannot write", errno);
  } else {
    struct stat st {};
    const bool exists = ::stat(target_.c_str(), &st) == 0;
    if (!exists && errno != ENOENT) fail("cannot write", errno);
    if (exists && S_ISDIR(st.st_mode))
      throw file_error("cannot write " + quoted(path) + ": it is a directory");
    if (exists && !S_ISREG(st.st_mode)) {
      // A device, FIFO, socket or terminal: write to it as it is.
      fd = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (fd < 0) fail("cannot write", errno);
    } else {
      if (exists && ::access(target_.c_str(), W_OK) != 0) fail("cannot write", errno);
      const fs::path dir = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
      const std::string prefix = "." + temp_stem(target_.filename().string()) + ".corank-";
      remove_stale_temps(dir, prefix);
      std::string temp = (dir / (prefix + std::to_string(::getpid()) + "-XXXXXX")).string();
      {
        const signals_deferred deferred;  // mkstemp and register as one step
        fd = ::mkstemp(temp.data());
        if (fd < 0) {
          const int error = errno;
          std::string why = std::strerror(error);
          if (error == ENOENT) why = "the folder " + quoted(dir) + " does not exist";
          if (error == ENOTDIR) why = quoted(dir) + " is not a folder";
          if (error == EACCES || error == EPERM || error == EROFS)
            why = "cannot create a file in the folder " + quoted(dir) + " (" + why + ")";
          throw file_error("cannot write " + quoted(path) + ": " + why);
        }
        try {
          temp_slot_ = register_temp(temp);
        } catch (...) {
          ::close(fd);
          ::unlink(temp.c_str());
          throw;
        }
      }
      temp_ = temp;
      // mkstemp makes 0600: give a new file what the shell would, keep a replaced file's mode.
      const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~current_umask());
      ::fchmod(fd, mode);
      if (exists && ::geteuid() == 0 && ::fchown(fd, st.st_uid, st.st_gid) != 0) {
        // best effort: the owner is kept where the file system allows it
      }
    }
  }
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int error = errno;
    ::close(fd);
    fail("cannot write", error);
  }
  is_stdout_ = temp_.empty() && same_file(fd, STDOUT_FILENO);
}

output_file::~output_file() { discard(); }

void output_file::discard() noexcept {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  unregister_temp(temp_slot_);
  temp_slot_ = -1;
}

void output_file::fail(const std::string& what, int error) const {
  throw file_error(what + " " + quoted(path_) + ": " + std::strerror(error));
}

void output_file::write(const void* data, std::size_t size) {
  if (!file_) throw file_error("cannot write " + quoted(path_) + ": it is closed");
  if (size && std::fwrite(data, 1, size, file_) != size) {
    const int error = errno;
    discard();
    fail("cannot write", error);
  }
}

void output_file::commit() {
  if (!file_) throw file_error("cannot write " + quoted(path_) + ": it is closed");
  const int fd = ::fileno(file_);
  int error = 0;
  if (std::fflush(file_) != 0 || std::ferror(file_)) error = errno ? errno : EIO;
  // Devices, FIFOs and terminals cannot be synced (EINVAL): only their writes can fail.
  else if (::fsync(fd) != 0 && (!temp_.empty() || (errno != EINVAL && errno != ENOTSUP)))
    error = errno;
  if (error) {
    discard();
    fail("cannot write", error);
  }
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) {
    error = errno;
    discard();
    fail("cannot write", error);
  }
  if (!temp_.empty() && std::rename(temp_.c_str(), target_.c_str()) != 0) {
    error = errno;
    discard();
    fail("cannot move the finished output into", error);
  }
  temp_.clear();
  unregister_temp(temp_slot_);
  temp_slot_ = -1;
}

void write_atomically(const fs::path& path, const std::function<void(output_file&)>& write) {
  output_file out(path);
  write(out);
  out.commit();
}

}  // namespace corank::io
