#include "support/io/text_input.hpp"

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstring>

namespace corank::io {
namespace {

class memory_bytes final : public byte_source {
 public:
  explicit memory_bytes(std::string_view text) : text_(text) {}
  std::size_t read(char* buffer, std::size_t size) override {
    const std::size_t n = std::min(size, text_.size() - pos_);
    if (n) std::memcpy(buffer, text_.data() + pos_, n);
    pos_ += n;
    return n;
  }
  std::size_t size_hint() const override { return text_.size(); }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

class gzip_file_bytes final : public byte_source {
 public:
  gzip_file_bytes(const std::filesystem::path& path, const std::string& name) : name_(name) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw file_error("cannot read " + name + ": it is a directory");
    errno = 0;
    file_ = ::gzopen(path.c_str(), "rb");
    if (!file_)
      throw file_error("cannot open " + name + ": " +
                       (errno ? std::strerror(errno) : "out of memory"));
    ::gzbuffer(file_, 256 * 1024);
    // A plain regular file's size bounds what it can hold; a compressed one's or a pipe's does not.
    if (S_ISREG(st.st_mode) && ::gzdirect(file_)) plain_size_ = std::size_t(st.st_size);
  }
  ~gzip_file_bytes() override { ::gzclose(file_); }

  std::size_t read(char* buffer, std::size_t size) override {
    const int n = ::gzread(file_, buffer, unsigned(std::min<std::size_t>(size, INT_MAX)));
    if (n < 0) {
      int code = 0;
      const char* why = ::gzerror(file_, &code);
      throw file_error("error reading " + name_ + ": " +
                       (code == Z_ERRNO ? std::strerror(errno) : why));
    }
    return std::size_t(n);
  }
  std::size_t size_hint() const override { return plain_size_; }

 private:
  std::string name_;
  gzFile file_ = nullptr;
  std::size_t plain_size_ = 0;
};

}  // namespace

std::string shown(std::string_view text, std::size_t max_chars) {
  std::string s(text.substr(0, max_chars));
  for (char& c : s)
    if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
  return "'" + s + (text.size() > max_chars ? "...'" : "'");
}

std::unique_ptr<byte_source> memory_source(std::string_view text) {
  return std::make_unique<memory_bytes>(text);
}

std::unique_ptr<byte_source> file_source(const std::filesystem::path& path,
                                         const std::string& name) {
  return std::make_unique<gzip_file_bytes>(path, name);
}

line_reader::line_reader(std::unique_ptr<byte_source> source, std::string name)
    : source_(std::move(source)), name_(std::move(name)) {}

bool line_reader::next(std::string_view& line) {
  for (;;) {
    const char* start = buffer_.get() + begin_;
    const void* nl = end_ > begin_ ? std::memchr(start, '\n', end_ - begin_) : nullptr;
    if (nl) {
      const std::size_t length = std::size_t(static_cast<const char*>(nl) - start);
      line = std::string_view(start, length);
      begin_ += length + 1;
      break;
    }
    if (at_end_) {
      if (begin_ == end_) return false;
      line = std::string_view(start, end_ - begin_);  // the last line, without '\n'
      begin_ = end_;
      break;
    }
    // Keep the partial line, make room, read more.
    if (begin_ > 0) {
      std::memmove(buffer_.get(), start, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ == capacity_) {
      if (capacity_ >= max_line_bytes) {
        ++line_no_;
        fail("line longer than " + std::to_string(max_line_bytes >> 20) +
             " MiB (is this really a text file?)");
      }
      const std::size_t grown = capacity_ ? 2 * capacity_ : std::size_t(64) << 10;
      std::unique_ptr<char[]> bigger(new char[grown]);
      if (end_) std::memcpy(bigger.get(), buffer_.get(), end_);
      buffer_ = std::move(bigger);
      capacity_ = grown;
    }
    const std::size_t got = source_->read(buffer_.get() + end_, capacity_ - end_);
    if (got == 0) at_end_ = true;
    end_ += got;
  }
  ++line_no_;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

}  // namespace corank::io
