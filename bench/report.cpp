#include "report.hpp"

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace corank::bench {
namespace {

const char* role_name(role r) {
  switch (r) {
    case role::baseline:
      return "baseline";
    case role::copy:
      return "copy";
    case role::contender:
      break;
  }
  return "contender";
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

/// Three significant digits, whatever the magnitude (0.00123 ms ... 1234 ms).
std::string sig3(double v) {
  if (v >= 100) return fixed(v, 0);
  if (v >= 10) return fixed(v, 1);
  if (v >= 1) return fixed(v, 2);
  if (v >= 0.1) return fixed(v, 3);
  return fixed(v, 4);
}

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write '" + path + "'");
  return f;
}

}  // namespace

std::string human_count(std::size_t n) {
  const char* units[] = {"", "K", "M", "G", "T"};
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1000 && u < 4) v /= 1000, ++u;
  std::ostringstream s;
  s << std::setprecision(v == static_cast<long long>(v) ? 0 : 2) << std::fixed << v << units[u];
  return s.str();
}

double report::elements_per_s(const row& r) const {
  return r.time.median_ms > 0 ? r.items / (r.time.median_ms * 1e-3) : 0;
}

double report::gb_per_s(const row& r) const {
  return r.time.median_ms > 0 ? r.bytes / (r.time.median_ms * 1e-3) / 1e9 : 0;
}

const row* report::find(role kind, std::size_t size, const std::string* backend) const {
  for (const row& r : rows_)
    if (r.kind == kind && r.size == size && (!backend || r.backend == *backend)) return &r;
  return nullptr;
}

std::optional<double> report::copy_fraction(const row& r) const {
  const row* copy = find(role::copy, r.size, &r.backend);
  if (!copy || gb_per_s(*copy) <= 0) return std::nullopt;
  return gb_per_s(r) / gb_per_s(*copy);
}

std::optional<double> report::speedup(const row& r) const {
  const row* base = find(role::baseline, r.size, nullptr);
  if (!base || r.time.median_ms <= 0 || r.kind == role::copy) return std::nullopt;
  return base->time.median_ms / r.time.median_ms;
}

bool report::all_verified() const {
  for (const row& r : rows_)
    if (!r.verified) return false;
  return true;
}

void report::print_table(std::ostream& out) const {
  const std::vector<std::string> head = {"size",      "contender", "backend", "threads",
                                         "median ms", "min ms",    "max ms",  "Melem/s",
                                         "GB/s",      "% copy",    "speed-up"};
  std::vector<std::vector<std::string>> cells;
  for (const row& r : rows_) {
    const auto frac = copy_fraction(r);
    const auto up = speedup(r);
    cells.push_back({human_count(r.size), r.contender + (r.verified ? "" : " (WRONG OUTPUT)"),
                     r.backend, std::to_string(r.threads), sig3(r.time.median_ms),
                     sig3(r.time.min_ms), sig3(r.time.max_ms), sig3(elements_per_s(r) / 1e6),
                     sig3(gb_per_s(r)), frac ? fixed(100 * *frac, 0) + "%" : "-",
                     up ? fixed(*up, 2) + "x" : "-"});
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& line : cells) width[c] = std::max(width[c], line[c].size());
  }
  // Text columns (size, contender, backend) left-aligned, numbers right-aligned.
  auto print_line = [&](const std::vector<std::string>& line) {
    for (std::size_t c = 0; c < line.size(); ++c) {
      out << (c ? "  " : "") << (c == 1 || c == 2 ? std::left : std::right)
          << std::setw(static_cast<int>(width[c])) << line[c];
    }
    out << std::right << "\n";
  };
  out << experiment_;
  for (const auto& [key, value] : meta_)
    if (key != "command") out << "  " << key << "=" << value;
  out << "\n";
  print_line(head);
  std::size_t rule = 2 * (head.size() - 1);
  for (std::size_t w : width) rule += w;
  out << std::string(rule, '-') << "\n";
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0 && rows_[i].size != rows_[i - 1].size) out << "\n";
    print_line(cells[i]);
  }
  out << "GB/s counts bytes read + written once; % copy: against a copy of the same bytes on the "
         "same backend; speed-up: against the baseline at the same size.\n";
}

void report::write_json(const std::string& path) const {
  nlohmann::json doc;
  doc["experiment"] = experiment_;
  doc["meta"] = meta_;
  doc["rows"] = nlohmann::json::array();
  for (const row& r : rows_) {
    nlohmann::json j = {{"contender", r.contender},
                        {"backend", r.backend},
                        {"role", role_name(r.kind)},
                        {"size", r.size},
                        {"items", r.items},
                        {"bytes", r.bytes},
                        {"threads", r.threads},
                        {"runs", r.time.runs},
                        {"median_ms", r.time.median_ms},
                        {"min_ms", r.time.min_ms},
                        {"max_ms", r.time.max_ms},
                        {"elements_per_s", elements_per_s(r)},
                        {"gb_per_s", gb_per_s(r)},
                        {"verified", r.verified}};
    const auto frac = copy_fraction(r);
    const auto up = speedup(r);
    j["copy_fraction"] = frac ? nlohmann::json(*frac) : nlohmann::json(nullptr);
    j["speedup"] = up ? nlohmann::json(*up) : nlohmann::json(nullptr);
    doc["rows"].push_back(std::move(j));
  }
  open_for_writing(path) << doc.dump(2) << "\n";
}

void report::write_csv(const std::string& path) const {
  std::ofstream f = open_for_writing(path);
  f << "experiment,contender,backend,role,size,items,bytes,threads,runs,median_ms,min_ms,max_ms,"
       "elements_per_s,gb_per_s,copy_fraction,speedup,verified\n";
  f << std::setprecision(9);
  for (const row& r : rows_) {
    const auto frac = copy_fraction(r);
    const auto up = speedup(r);
    f << experiment_ << ',' << '"' << r.contender << '"' << ',' << r.backend << ','
      << role_name(r.kind) << ',' << r.size << ',' << r.items << ',' << r.bytes << ',' << r.threads
      << ',' << r.time.runs << ',' << r.time.median_ms << ',' << r.time.min_ms << ','
      << r.time.max_ms << ',' << elements_per_s(r) << ',' << gb_per_s(r) << ','
      << (frac ? std::to_string(*frac) : "") << ',' << (up ? std::to_string(*up) : "") << ','
      << (r.verified ? "true" : "false") << "\n";
  }
}

}  // namespace corank::bench
