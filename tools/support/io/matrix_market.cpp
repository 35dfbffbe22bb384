#include "support/io/matrix_market.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <new>

#include "support/io/array_file.hpp"
#include "support/io/output_file.hpp"
#include "support/io/text_input.hpp"

namespace corank::io {
namespace {

enum class field { real, integer, pattern };
enum class symmetry { general, symmetric, skew_symmetric };

bool is_blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; });
}

/// The first (up to) 5 whitespace-separated words of a line, and how many there are in all.
struct words {
  std::array<std::string_view, 5> at;
  std::size_t count = 0;
};

words split(std::string_view line) {
  words w;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) {
      if (w.count < w.at.size()) w.at[w.count] = line.substr(i, j - i);
      ++w.count;
    }
    i = j;
  }
  return w;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string token_shown(std::string_view token) { return shown(token, 40); }

std::uint64_t parse_count(std::string_view token, const char* what, const line_reader& in) {
  std::uint64_t v = 0;
  const number_status status = token.empty() || token[0] == '+' || token[0] == '-'
                                   ? number_status::invalid
                                   : parse_number(token, v);
  if (status == number_status::out_of_range)
    in.fail(std::string(what) + " " + token_shown(token) + " is too large");
  if (status != number_status::ok)
    in.fail(std::string(what) + " " + token_shown(token) + " is not a non-negative integer");
  return v;
}

double parse_value(std::string_view token, field f, const matrix_market_limits& limits,
                   const line_reader& in) {
  double v = 0;
  if (f == field::integer) {
    std::int64_t i = 0;
    if (parse_number(token, i) != number_status::ok)
      in.fail("value " + token_shown(token) + " is not an integer");
    v = static_cast<double>(i);
  } else {
    const number_status status = parse_number(token, v);
    if (status == number_status::invalid || std::isnan(v))
      in.fail("value " + token_shown(token) + " is not a finite real number");
    if (status == number_status::out_of_range || std::isinf(v))
      in.fail("value " + token_shown(token) + " is beyond the double range");
  }
  if (std::fabs(v) > limits.max_abs_value)
    in.fail("value " + token_shown(token) + " is beyond " + limits.max_abs_value_reason);
  return v;
}

struct header {
  field value_field;
  symmetry sym;
};

header parse_header(line_reader& in) {
  std::string_view line;
  if (!in.next(line)) in.fail("empty file: expected a '%%MatrixMarket' header");
  const words t = split(line);
  if (t.count == 0 || t.at[0] != "%%MatrixMarket")
    in.fail("expected a '%%MatrixMarket matrix coordinate <field> <symmetry>' header");
  if (t.count != 5)
    in.fail(
        "the header needs 4 words after %%MatrixMarket (object, format, field, symmetry), got " +
        std::to_string(t.count - 1));
  if (lower(t.at[1]) != "matrix")
    in.fail("object " + token_shown(t.at[1]) + " is not supported (only 'matrix')");
  const std::string format = lower(t.at[2]);
  if (format == "array") in.fail("dense 'array' format is not supported (only 'coordinate')");
  if (format != "coordinate")
    in.fail("unknown format " + token_shown(t.at[2]) + " (expected 'coordinate')");
  header h{};
  const std::string f = lower(t.at[3]);
  if (f == "real" || f == "double")
    h.value_field = field::real;
  else if (f == "integer")
    h.value_field = field::integer;
  else if (f == "pattern")
    h.value_field = field::pattern;
  else if (f == "complex")
    in.fail("complex matrices are not supported (real, integer or pattern)");
  else
    in.fail("unknown field " + token_shown(t.at[3]) + " (expected real, integer or pattern)");
  const std::string s = lower(t.at[4]);
  if (s == "general")
    h.sym = symmetry::general;
  else if (s == "symmetric")
    h.sym = symmetry::symmetric;
  else if (s == "skew-symmetric")
    h.sym = symmetry::skew_symmetric;
  else if (s == "hermitian")
    in.fail("hermitian matrices are not supported");
  else
    in.fail("unknown symmetry " + token_shown(t.at[4]) + " (expected general or symmetric)");
  if (h.value_field == field::pattern && h.sym == symmetry::skew_symmetric)
    in.fail("a pattern matrix cannot be skew-symmetric");
  return h;
}

struct coo_entry {
  std::int32_t row, col;
  double value;
};

/// Sums the entries of each row that share a column into the first of them, keeping the file
/// order of the rest. Rows whose columns ascend (the usual case) are only looked at.
std::size_t sum_duplicates(csr_matrix& m) {
  std::size_t summed = 0, write = 0;
  std::vector<std::pair<std::int32_t, std::size_t>> by_column;  // (column, position in row)
  std::vector<char> keep;
  for (std::size_t r = 0; r < m.rows; ++r) {
    const auto begin = std::size_t(m.row_offsets[r]), end = std::size_t(m.row_offsets[r + 1]);
    bool ascending = true;
    for (std::size_t k = begin + 1; k < end && ascending; ++k)
      ascending = m.col_indices[k - 1] < m.col_indices[k];
    keep.assign(end - begin, 1);
    if (!ascending) {
      by_column.clear();
      for (std::size_t k = begin; k < end; ++k) by_column.push_back({m.col_indices[k], k - begin});
      std::sort(by_column.begin(), by_column.end());  // by column, then file order
      for (std::size_t first = 0, i = 1; i < by_column.size(); ++i) {
        if (by_column[i].first != by_column[first].first) {
          first = i;
          continue;
        }
        m.values[begin + by_column[first].second] += m.values[begin + by_column[i].second];
        keep[by_column[i].second] = 0;
        ++summed;
      }
    }
    m.row_offsets[r] = std::int64_t(write);
    for (std::size_t k = begin; k < end; ++k)
      if (keep[k - begin]) {
        m.col_indices[write] = m.col_indices[k];
        m.values[write] = m.values[k];
        ++write;
      }
  }
  m.row_offsets[m.rows] = std::int64_t(write);
  m.col_indices.resize(write);
  m.values.resize(write);
  return summed;
}

csr_matrix read(line_reader& in, const matrix_market_limits& limits) {
  const header h = parse_header(in);

  // Comments, then the size line.
  std::string_view line;
  words t;
  for (;;) {
    if (!in.next(line)) in.fail("truncated: expected the size line 'rows cols nonzeros'");
    if (!line.empty() && line[0] == '%') continue;
    if (is_blank(line)) continue;
    t = split(line);
    break;
  }
  if (t.count != 3)
    in.fail("the size line needs 3 integers 'rows cols nonzeros', got " + std::to_string(t.count) +
            " words");
  const std::uint64_t rows = parse_count(t.at[0], "row count", in),
                      cols = parse_count(t.at[1], "column count", in),
                      declared = parse_count(t.at[2], "non-zero count", in);
  if (rows > limits.max_dimension || cols > limits.max_dimension)
    in.fail("dimensions " + std::to_string(rows) + " x " + std::to_string(cols) +
            " exceed the limit of " + std::to_string(limits.max_dimension) +
            " (row and column indices are 32-bit)");
  if (h.sym != symmetry::general && rows != cols)
    in.fail("a symmetric matrix must be square, this one is " + std::to_string(rows) + " x " +
            std::to_string(cols));
  if (declared > rows * cols)  // both below 2^32: no overflow
    in.fail("non-zero count " + std::to_string(declared) + " exceeds rows x cols");

  // The CSR's row offsets are needed whatever the entries: check them before reading those.
  const std::string what = in.name() + " (" + std::to_string(rows) + " x " + std::to_string(cols) +
                           ", " + std::to_string(declared) + " entries)";
  check_memory(double(rows + 1) * sizeof(std::int64_t), "the row offsets of " + what);

  // Entries. The size line is not trusted: reserve no more than the input can hold (4 bytes an
  // entry at least, "1 1\n"), and grow as entries arrive.
  std::vector<coo_entry> entries;
  const std::size_t mirrored = h.sym == symmetry::general ? 1 : 2;
  const std::uint64_t can_hold = in.size_hint() ? in.size_hint() / 4 + 1 : std::uint64_t(1) << 16;
  try {
    entries.reserve(std::size_t(std::min(declared, can_hold)) * mirrored);
  } catch (const std::bad_alloc&) {
    out_of_memory(double(std::min(declared, can_hold)) * mirrored * sizeof(coo_entry),
                  "the entries of " + what);
  }
  const std::size_t want_words = h.value_field == field::pattern ? 2 : 3;
  std::uint64_t seen = 0;
  while (in.next(line)) {
    if ((!line.empty() && line[0] == '%') || is_blank(line)) continue;
    if (seen == declared)
      in.fail("more entries than the " + std::to_string(declared) + " declared on the size line");
    t = split(line);
    if (t.count != want_words)
      in.fail("entry needs " + std::to_string(want_words) + " words (" +
              (want_words == 2 ? "row col" : "row col value") + "), got " +
              std::to_string(t.count));
    const std::uint64_t r = parse_count(t.at[0], "row index", in),
                        c = parse_count(t.at[1], "column index", in);
    if (r < 1 || r > rows)
      in.fail("row index " + std::to_string(r) + " is out of range 1.." + std::to_string(rows));
    if (c < 1 || c > cols)
      in.fail("column index " + std::to_string(c) + " is out of range 1.." + std::to_string(cols));
    const double v =
        h.value_field == field::pattern ? 1.0 : parse_value(t.at[2], h.value_field, limits, in);
    const auto row = static_cast<std::int32_t>(r - 1), col = static_cast<std::int32_t>(c - 1);
    if (h.sym != symmetry::general && col > row)
      in.fail("entry (" + std::to_string(r) + ", " + std::to_string(c) +
              ") lies above the diagonal: a symmetric file stores the lower triangle only");
    if (h.sym == symmetry::skew_symmetric && col == row)
      in.fail("a skew-symmetric matrix has no diagonal entries, got (" + std::to_string(r) + ", " +
              std::to_string(c) + ")");
    try {
      entries.push_back({row, col, v});
      if (h.sym != symmetry::general && col != row)
        entries.push_back({col, row, h.sym == symmetry::skew_symmetric ? -v : v});
    } catch (const std::bad_alloc&) {
      out_of_memory(double(entries.size()) * 2 * sizeof(coo_entry), "the entries of " + what);
    }
    ++seen;
  }
  if (seen < declared)
    in.fail("truncated: " + std::to_string(seen) + " entries of the " + std::to_string(declared) +
            " declared");

  // Counting sort by row: stable, so each row keeps the file order. The offsets serve as the
  // rows' cursors while placing, then shift back by one row (no second rows-long array).
  csr_matrix m;
  m.rows = rows;
  m.cols = cols;
  try {
    m.row_offsets.assign(rows + 1, 0);
    m.col_indices.resize(entries.size());
    m.values.resize(entries.size());
  } catch (const std::bad_alloc&) {
    out_of_memory(double(rows + 1) * 8 + double(entries.size()) * 12, "the CSR form of " + what);
  }
  for (const auto& e : entries) ++m.row_offsets[static_cast<std::size_t>(e.row) + 1];
  for (std::size_t r = 0; r < rows; ++r) m.row_offsets[r + 1] += m.row_offsets[r];
  for (const auto& e : entries) {
    const auto k = static_cast<std::size_t>(m.row_offsets[static_cast<std::size_t>(e.row)]++);
    m.col_indices[k] = e.col;
    m.values[k] = e.value;
  }
  for (std::size_t r = rows; r > 0; --r) m.row_offsets[r] = m.row_offsets[r - 1];
  m.row_offsets[0] = 0;
  entries = {};
  m.duplicates_summed = sum_duplicates(m);
  return m;
}

}  // namespace

csr_matrix parse_matrix_market(std::string_view text, const std::string& name,
                               const matrix_market_limits& limits) {
  line_reader in(memory_source(text), name);
  return read(in, limits);
}

csr_matrix read_matrix_market(const std::filesystem::path& path,
                              const matrix_market_limits& limits) {
  const std::string name = "'" + path.string() + "'";
  line_reader in(file_source(path, name), name);
  return read(in, limits);
}

void write_matrix_market(output_file& out, const csr_matrix& m, bool pattern,
                         const std::string& comment) {
  {
    std::string text = "%%MatrixMarket matrix coordinate " +
                       std::string(pattern ? "pattern" : "real") + " general\n";
    if (!comment.empty()) text += "% " + comment + "\n";
    text += std::to_string(m.rows) + " " + std::to_string(m.cols) + " " + std::to_string(m.nnz()) +
            "\n";
    out.write(text);
    char line[96];
    for (std::size_t r = 0; r < m.rows; ++r)
      for (auto k = static_cast<std::size_t>(m.row_offsets[r]);
           k < static_cast<std::size_t>(m.row_offsets[r + 1]); ++k) {
        const int length =
            pattern ? std::snprintf(line, sizeof line, "%zu %d\n", r + 1, m.col_indices[k] + 1)
                    : std::snprintf(line, sizeof line, "%zu %d %.17g\n", r + 1,
                                    m.col_indices[k] + 1, m.values[k]);
        out.write(line, std::size_t(length));
      }
  }
}

void write_matrix_market(const std::filesystem::path& path, const csr_matrix& m, bool pattern,
                         const std::string& comment) {
  write_atomically(path, [&](output_file& out) { write_matrix_market(out, m, pattern, comment); });
}

}  // namespace corank::io
