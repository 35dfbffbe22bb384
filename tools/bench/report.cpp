#include "bench/report.hpp"

#include <cstdio>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "bench/machine.hpp"
#include "support/io/output_file.hpp"

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

row problem_shape(std::string group, std::string backend, std::size_t size, std::size_t items,
                  std::size_t bytes, int iterations, int threads) {
  row r;
  r.group = std::move(group);
  r.backend = std::move(backend);
  r.size = size;
  r.items = items;
  r.bytes = bytes;
  r.iterations = iterations;
  r.threads = threads;
  return r;
}

void report::add(const row& shape, const std::string& contender, role kind, const stats& time,
                 bool verified) {
  row r = shape;
  r.contender = contender;
  r.kind = kind;
  r.time = time;
  r.verified = verified;
  rows_.push_back(std::move(r));
}

double report::elements_per_s(const row& r) const {
  return r.time.median_ms > 0 ? double(r.items) * r.iterations / (r.time.median_ms * 1e-3) : 0;
}

double report::gb_per_s(const row& r) const {
  return r.time.median_ms > 0 ? double(r.bytes) * r.iterations / (r.time.median_ms * 1e-3) / 1e9
                              : 0;
}

const row* report::copy_for(const row& r) const {
  const row* largest = nullptr;
  for (const row& c : rows_) {
    if (c.kind != role::copy || c.backend != r.backend) continue;
    if (c.size == r.size) return &c;
    if (!largest || c.bytes > largest->bytes) largest = &c;
  }
  return largest;
}

std::optional<double> report::copy_fraction(const row& r) const {
  const row* copy = copy_for(r);
  if (!copy || gb_per_s(*copy) <= 0) return std::nullopt;
  return gb_per_s(r) / gb_per_s(*copy);
}

std::optional<double> report::speedup(const row& r) const {
  if (r.time.median_ms <= 0 || r.kind == role::copy) return std::nullopt;
  for (const row& base : rows_)
    if (base.kind == role::baseline && base.group == r.group && base.size == r.size)
      return base.time.median_ms / r.time.median_ms;
  return std::nullopt;
}

bool report::all_verified() const {
  for (const row& r : rows_)
    if (!r.verified) return false;
  return true;
}

void report::print_table(std::ostream& out) const {
  // Optional columns only where some row needs them: group, iteration counts.
  bool groups = false, iterations = false;
  for (const row& r : rows_) groups |= !r.group.empty(), iterations |= r.iterations != 1;
  std::vector<std::string> head;
  if (groups) head.push_back("group");
  head.insert(head.end(), {"size", "contender", "backend", "threads"});
  if (iterations) head.push_back("iters");
  head.insert(head.end(), {"median ms", "min ms", "max ms"});
  if (iterations) head.push_back("ms/iter");
  head.insert(head.end(), {"Melem/s", "GB/s", "% copy", "speed-up"});

  std::vector<std::vector<std::string>> cells;
  for (const row& r : rows_) {
    const auto frac = copy_fraction(r);
    const auto up = speedup(r);
    std::vector<std::string> line;
    if (groups) line.push_back(r.group);
    line.insert(line.end(),
                {human_count(r.size), r.contender + (r.verified ? "" : " (WRONG OUTPUT)"),
                 r.backend, std::to_string(r.threads)});
    if (iterations) line.push_back(std::to_string(r.iterations));
    line.insert(line.end(), {sig3(r.time.median_ms), sig3(r.time.min_ms), sig3(r.time.max_ms)});
    if (iterations) line.push_back(sig3(r.time.median_ms / r.iterations));
    line.insert(line.end(),
                {sig3(elements_per_s(r) / 1e6), sig3(gb_per_s(r)),
                 frac ? fixed(100 * *frac, 0) + "%" : "-", up ? fixed(*up, 2) + "x" : "-"});
    cells.push_back(std::move(line));
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& line : cells) width[c] = std::max(width[c], line[c].size());
  }
  auto print_line = [&](const std::vector<std::string>& line) {
    for (std::size_t c = 0; c < line.size(); ++c) {
      // Text columns left-aligned, numbers right-aligned.
      const bool text = head[c] == "group" || head[c] == "contender" || head[c] == "backend";
      out << (c ? "  " : "") << (text ? std::left : std::right)
          << std::setw(static_cast<int>(width[c])) << line[c];
    }
    out << std::right << "\n";
  };
  out << experiment_;
  for (const auto& [key, value] : meta_) out << "  " << key << "=" << value;
  out << "\n";
  print_line(head);
  std::size_t rule = 2 * (head.size() - 1);
  for (std::size_t w : width) rule += w;
  out << std::string(rule, '-') << "\n";
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0 && (rows_[i].size != rows_[i - 1].size || rows_[i].group != rows_[i - 1].group))
      out << "\n";
    print_line(cells[i]);
  }
  out << "GB/s counts the bytes the problem must move (read + written once); % copy: against a "
         "copy on the same backend; speed-up: against the baseline of the same group and size.\n";
}

namespace {

nlohmann::json to_json(const report& rep) {
  nlohmann::json j;
  j["experiment"] = rep.experiment();
  j["meta"] = rep.meta();
  j["rows"] = nlohmann::json::array();
  for (const row& r : rep.rows()) {
    const auto frac = rep.copy_fraction(r);
    const auto up = rep.speedup(r);
    j["rows"].push_back({{"group", r.group},
                         {"contender", r.contender},
                         {"backend", r.backend},
                         {"role", role_name(r.kind)},
                         {"size", r.size},
                         {"items", r.items},
                         {"bytes", r.bytes},
                         {"iterations", r.iterations},
                         {"threads", r.threads},
                         {"runs", r.time.runs},
                         {"median_ms", r.time.median_ms},
                         {"min_ms", r.time.min_ms},
                         {"max_ms", r.time.max_ms},
                         {"elements_per_s", rep.elements_per_s(r)},
                         {"gb_per_s", rep.gb_per_s(r)},
                         {"copy_fraction", frac ? nlohmann::json(*frac) : nlohmann::json()},
                         {"speedup", up ? nlohmann::json(*up) : nlohmann::json()},
                         {"verified", r.verified}});
  }
  return j;
}

nlohmann::json machine_json(const machine_info& m) {
  nlohmann::json gpu;  // null without a usable GPU
  if (m.gpu.available)
    gpu = {{"name", m.gpu.name},
           {"multiprocessors", m.gpu.multiprocessors},
           {"compute_capability", m.gpu.compute_capability},
           {"memory_bytes", m.gpu.memory_bytes},
           {"driver_cuda_version", cuda_version_string(m.gpu.driver_version)},
           {"runtime_cuda_version", cuda_version_string(m.gpu.runtime_version)}};
  std::string cub;
  if (m.gpu.cub_version)
    cub = std::to_string(m.gpu.cub_version / 100000) + "." +
          std::to_string(m.gpu.cub_version / 100 % 1000) + "." +
          std::to_string(m.gpu.cub_version % 100);
  return {{"machine",
           {{"host", m.host},
            {"cpu_model", m.cpu_model},
            {"cores", m.cores},
            {"omp_threads", m.omp_threads}}},
          {"gpu", gpu},
          {"versions",
           {{"corank", m.corank_version},
            {"compiler", m.compiler},
            {"cuda_toolkit", cuda_version_string(m.gpu.toolkit_version)},
            {"cub", cub}}}};
}

}  // namespace

std::string json_document(const std::vector<report>& reports,
                          const std::map<std::string, std::string>& run) {
  nlohmann::json doc = machine_json(describe_machine());
  doc["schema"] = "corank-bench-1";
  doc["run"] = run;
  // Each backend's bandwidth: its largest copy in the run (a big copy shows the machine's).
  std::map<std::string, std::pair<const report*, const row*>> largest;
  nlohmann::json experiments = nlohmann::json::array();
  for (const report& rep : reports) {
    for (const row& r : rep.rows()) {
      auto& best = largest[r.backend];
      if (r.kind == role::copy && (!best.second || r.bytes > best.second->bytes)) best = {&rep, &r};
    }
    experiments.push_back(to_json(rep));
  }
  nlohmann::json copy = nlohmann::json::object();
  for (const auto& [backend, best] : largest)
    if (best.second)
      copy[backend] = {{"gb_per_s", best.first->gb_per_s(*best.second)},
                       {"bytes", best.second->bytes},
                       {"experiment", best.first->experiment()}};
  doc["copy_bandwidth"] = copy;
  doc["experiments"] = std::move(experiments);
  return doc.dump(2) + "\n";
}

void write_json(const std::string& path, const std::vector<report>& reports,
                const std::map<std::string, std::string>& run) {
  const std::string text = json_document(reports, run);
  io::write_atomically(path, [&](io::output_file& out) { out.write(text); });
}

void write_csv(const std::string& path, const std::vector<report>& reports) {
  const std::string text = csv_table(reports);
  io::write_atomically(path, [&](io::output_file& out) { out.write(text); });
}

void report::write_json(const std::string& path) const { bench::write_json(path, {*this}); }

void report::write_csv(const std::string& path) const { bench::write_csv(path, {*this}); }

std::string csv_table(const std::vector<report>& reports) {
  std::ostringstream f;
  f << "experiment,group,contender,backend,role,size,items,bytes,iterations,threads,runs,median_ms,"
       "min_ms,max_ms,elements_per_s,gb_per_s,copy_fraction,speedup,verified\n";
  f << std::setprecision(9);
  for (const report& rep : reports)
    for (const row& r : rep.rows()) {
      const auto frac = rep.copy_fraction(r);
      const auto up = rep.speedup(r);
      f << '"' << rep.experiment() << "\",\"" << r.group << "\",\"" << r.contender << "\","
        << r.backend << ',' << role_name(r.kind) << ',' << r.size << ',' << r.items << ','
        << r.bytes << ',' << r.iterations << ',' << r.threads << ',' << r.time.runs << ','
        << r.time.median_ms << ',' << r.time.min_ms << ',' << r.time.max_ms << ','
        << rep.elements_per_s(r) << ',' << rep.gb_per_s(r) << ','
        << (frac ? std::to_string(*frac) : "") << ',' << (up ? std::to_string(*up) : "") << ','
        << (r.verified ? "true" : "false") << "\n";
    }
  return f.str();
}

}  // namespace corank::bench
