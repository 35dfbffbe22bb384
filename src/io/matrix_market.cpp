#include "io/matrix_market.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace corank::io {
namespace {

enum class field { real, integer, pattern };
enum class symmetry { general, symmetric, skew_symmetric };

/// Splits the text into lines and numbers them; every error names the current one.
class line_reader {
 public:
  line_reader(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++line_no_;
    return true;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw file_error(name_ + ":" + std::to_string(line_no_) + ": " + what);
  }
  std::size_t line_no() const { return line_no_; }

 private:
  std::string_view text_;
  const std::string& name_;
  std::size_t pos_ = 0, line_no_ = 0;
};

bool is_blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; });
}

/// Whitespace-separated tokens of a line.
std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string shown(std::string_view token) {
  constexpr std::size_t max_shown = 40;
  std::string s(token.substr(0, max_shown));
  for (char& c : s)
    if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
  return "'" + s + (token.size() > max_shown ? "...'" : "'");
}

std::uint64_t parse_count(std::string_view token, const char* what, const line_reader& in) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec == std::errc::result_out_of_range)
    in.fail(std::string(what) + " " + shown(token) + " is too large");
  if (ec != std::errc() || end != token.data() + token.size())
    in.fail(std::string(what) + " " + shown(token) + " is not a non-negative integer");
  return v;
}

double parse_value(std::string_view token, field f, const line_reader& in) {
  if (f == field::integer) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (ec != std::errc() || end != token.data() + token.size())
      in.fail("value " + shown(token) + " is not an integer");
    return static_cast<double>(v);
  }
  double v = 0;
  const char* first = token.data();
  if (!token.empty() && token[0] == '+') ++first;  // from_chars rejects a leading '+'
  const auto [end, ec] = std::from_chars(first, token.data() + token.size(), v);
  if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(v))
    in.fail("value " + shown(token) + " is not a finite real number");
  return v;
}

struct header {
  field value_field;
  symmetry sym;
};

header parse_header(line_reader& in) {
  std::string_view line;
  if (!in.next(line)) in.fail("empty file: expected a '%%MatrixMarket' header");
  const auto t = tokens(line);
  if (t.empty() || t[0] != "%%MatrixMarket")
    in.fail("expected a '%%MatrixMarket matrix coordinate <field> <symmetry>' header");
  if (t.size() != 5)
    in.fail(
        "the header needs 4 words after %%MatrixMarket (object, format, field, symmetry), got " +
        std::to_string(t.size() - 1));
  if (lower(t[1]) != "matrix")
    in.fail("object " + shown(t[1]) + " is not supported (only 'matrix')");
  const std::string format = lower(t[2]);
  if (format == "array") in.fail("dense 'array' format is not supported (only 'coordinate')");
  if (format != "coordinate") in.fail("unknown format " + shown(t[2]) + " (expected 'coordinate')");
  header h{};
  const std::string f = lower(t[3]);
  if (f == "real" || f == "double")
    h.value_field = field::real;
  else if (f == "integer")
    h.value_field = field::integer;
  else if (f == "pattern")
    h.value_field = field::pattern;
  else if (f == "complex")
    in.fail("complex matrices are not supported (real, integer or pattern)");
  else
    in.fail("unknown field " + shown(t[3]) + " (expected real, integer or pattern)");
  const std::string s = lower(t[4]);
  if (s == "general")
    h.sym = symmetry::general;
  else if (s == "symmetric")
    h.sym = symmetry::symmetric;
  else if (s == "skew-symmetric")
    h.sym = symmetry::skew_symmetric;
  else if (s == "hermitian")
    in.fail("hermitian matrices are not supported");
  else
    in.fail("unknown symmetry " + shown(t[4]) + " (expected general or symmetric)");
  if (h.value_field == field::pattern && h.sym == symmetry::skew_symmetric)
    in.fail("a pattern matrix cannot be skew-symmetric");
  return h;
}

struct coo_entry {
  std::int32_t row, col;
  double value;
};

}  // namespace

csr_matrix parse_matrix_market(std::string_view text, const std::string& name,
                               const matrix_market_limits& limits) {
  line_reader in(text, name);
  const header h = parse_header(in);

  // Comments, then the size line.
  std::string_view line;
  std::vector<std::string_view> t;
  for (;;) {
    if (!in.next(line)) in.fail("truncated: expected the size line 'rows cols nonzeros'");
    if (!line.empty() && line[0] == '%') continue;
    if (is_blank(line)) continue;
    t = tokens(line);
    break;
  }
  if (t.size() != 3)
    in.fail("the size line needs 3 integers 'rows cols nonzeros', got " + std::to_string(t.size()) +
            " words");
  const std::uint64_t rows = parse_count(t[0], "row count", in),
                      cols = parse_count(t[1], "column count", in),
                      declared = parse_count(t[2], "non-zero count", in);
  if (rows > limits.max_dimension || cols > limits.max_dimension)
    in.fail("dimensions " + std::to_string(rows) + " x " + std::to_string(cols) +
            " exceed the limit of " + std::to_string(limits.max_dimension));
  if (h.sym != symmetry::general && rows != cols)
    in.fail("a symmetric matrix must be square, this one is " + std::to_string(rows) + " x " +
            std::to_string(cols));
  if (declared > rows * cols)  // both below 2^31: no overflow
    in.fail("non-zero count " + std::to_string(declared) + " exceeds rows x cols");

  // Entries. Reserve no more than the text can hold (at least 4 bytes an entry).
  std::vector<coo_entry> entries;
  entries.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(declared, text.size() / 4 + 1)));
  const std::size_t want_words = h.value_field == field::pattern ? 2 : 3;
  std::uint64_t seen = 0;
  while (in.next(line)) {
    if ((!line.empty() && line[0] == '%') || is_blank(line)) continue;
    if (seen == declared)
      in.fail("more entries than the " + std::to_string(declared) + " declared on the size line");
    t = tokens(line);
    if (t.size() != want_words)
      in.fail("entry needs " + std::to_string(want_words) + " words (" +
              (want_words == 2 ? "row col" : "row col value") + "), got " +
              std::to_string(t.size()));
    const std::uint64_t r = parse_count(t[0], "row index", in),
                        c = parse_count(t[1], "column index", in);
    if (r < 1 || r > rows)
      in.fail("row index " + std::to_string(r) + " is out of range 1.." + std::to_string(rows));
    if (c < 1 || c > cols)
      in.fail("column index " + std::to_string(c) + " is out of range 1.." + std::to_string(cols));
    const double v = h.value_field == field::pattern ? 1.0 : parse_value(t[2], h.value_field, in);
    const auto row = static_cast<std::int32_t>(r - 1), col = static_cast<std::int32_t>(c - 1);
    if (h.sym != symmetry::general && col > row)
      in.fail("entry (" + std::to_string(r) + ", " + std::to_string(c) +
              ") lies above the diagonal: a symmetric file stores the lower triangle only");
    if (h.sym == symmetry::skew_symmetric && col == row)
      in.fail("a skew-symmetric matrix has no diagonal entries, got (" + std::to_string(r) + ", " +
              std::to_string(c) + ")");
    entries.push_back({row, col, v});
    if (h.sym != symmetry::general && col != row)
      entries.push_back({col, row, h.sym == symmetry::skew_symmetric ? -v : v});
    ++seen;
  }
  if (seen < declared)
    in.fail("truncated: " + std::to_string(seen) + " entries of the " + std::to_string(declared) +
            " declared");

  // Counting sort by row: stable, so each row keeps the file order.
  csr_matrix m;
  m.rows = rows;
  m.cols = cols;
  m.row_offsets.assign(rows + 1, 0);
  for (const auto& e : entries) ++m.row_offsets[static_cast<std::size_t>(e.row) + 1];
  for (std::size_t r = 0; r < rows; ++r) m.row_offsets[r + 1] += m.row_offsets[r];
  m.col_indices.resize(entries.size());
  m.values.resize(entries.size());
  std::vector<std::int64_t> next(m.row_offsets.begin(), m.row_offsets.end() - 1);
  for (const auto& e : entries) {
    const auto k = static_cast<std::size_t>(next[static_cast<std::size_t>(e.row)]++);
    m.col_indices[k] = e.col;
    m.values[k] = e.value;
  }
  return m;
}

csr_matrix read_matrix_market(const std::filesystem::path& path,
                              const matrix_market_limits& limits) {
  const std::string name = "'" + path.string() + "'";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw file_error("cannot read " + name + ": it is a directory");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw file_error("cannot open " + name);
  std::ostringstream text;
  text << f.rdbuf();
  if (f.bad()) throw file_error("error reading " + name);
  return parse_matrix_market(text.str(), name, limits);
}

void write_matrix_market(const std::filesystem::path& path, const csr_matrix& m, bool pattern,
                         const std::string& comment) {
  write_atomically(path, [&](std::FILE* out) {
    std::fprintf(out, "%%%%MatrixMarket matrix coordinate %s general\n",
                 pattern ? "pattern" : "real");
    if (!comment.empty()) std::fprintf(out, "%% %s\n", comment.c_str());
    std::fprintf(out, "%zu %zu %zu\n", m.rows, m.cols, m.nnz());
    for (std::size_t r = 0; r < m.rows; ++r)
      for (auto k = static_cast<std::size_t>(m.row_offsets[r]);
           k < static_cast<std::size_t>(m.row_offsets[r + 1]); ++k) {
        if (pattern)
          std::fprintf(out, "%zu %d\n", r + 1, m.col_indices[k] + 1);
        else
          std::fprintf(out, "%zu %d %.17g\n", r + 1, m.col_indices[k] + 1, m.values[k]);
      }
  });
}

}  // namespace corank::io
