// The CLI's GPU toolbox calls: host arrays to the device, corank::cuda's entry point, and back.
#include "corank/cuda/join.cuh"
#include "corank/cuda/multiway_merge.cuh"
#include "corank/cuda/set_operations.cuh"
#include "corank/cuda/sorted_search.cuh"
#include "support/backend/device_scope.hpp"
#include "support/backend/gpu_toolbox.hpp"
#include "support/io/element_type.hpp"

namespace corank::backend {

template <class T>
double gpu_search(const T* haystack, std::size_t m, const T* needles, std::size_t n,
                  bool needles_sorted, bool upper, std::uint64_t* out) {
  if (n == 0) return 0.0;
  device_scope s("GPU search");
  const T* dh = s.upload(haystack, m, "copying the haystack to the device");
  const T* dn = s.upload(needles, n, "copying the needles to the device");
  std::uint64_t* dout = s.allocate<std::uint64_t>(n);
  const double ms = s.time_ms(
      [&] {
        if (needles_sorted)
          return upper ? cuda::sorted_upper_bound(dh, m, dn, n, dout)
                       : cuda::sorted_lower_bound(dh, m, dn, n, dout);
        return upper ? cuda::upper_bound(dh, m, dn, n, dout)
                     : cuda::lower_bound(dh, m, dn, n, dout);
      },
      "searching");
  s.download(out, dout, n);
  return ms;
}

template <class T>
double gpu_set_operation(set_op op, const T* a, std::size_t m, const T* b, std::size_t n, T* out,
                         std::size_t* count) {
  device_scope s("GPU set operation");
  const T* da = s.upload(a, m, "copying A to the device");
  const T* db = s.upload(b, n, "copying B to the device");
  T* dout = s.allocate<T>(set_operation_max_outputs(op, m, n));
  std::size_t* dcount = s.allocate<std::size_t>(1);
  const double ms = s.time_ms(
      [&] {
        return cuda::set_operation(op, da, m, db, n, dout, cuda::output_count::on_device(dcount));
      },
      "running the set operation");
  s.download(count, dcount, 1);
  s.download(out, dout, *count);
  return ms;
}

template <class T>
double gpu_multiway_merge(const T* keys, const std::uint64_t* offsets, std::size_t runs, T* out) {
  const std::size_t n = runs ? std::size_t(offsets[runs]) : 0;
  if (n == 0) return 0.0;
  device_scope s("GPU k-way merge");
  const T* dk = s.upload(keys, n, "copying the runs to the device");
  const std::uint64_t* doff = s.upload(offsets, runs + 1, "copying the run offsets to the device");
  T* dout = s.allocate<T>(n);
  const double ms =
      s.time_ms([&] { return cuda::multiway_merge(dk, doff, runs, n, dout); }, "merging");
  s.download(out, dout, n);
  return ms;
}

template <class T>
double gpu_join(join_kind kind, const T* a, std::size_t m, const T* b, std::size_t n,
                std::vector<std::size_t>& pair_a, std::vector<std::size_t>& pair_b) {
  device_scope s("GPU join");
  const T* da = s.upload(a, m, "copying A to the device");
  const T* db = s.upload(b, n, "copying B to the device");
  std::size_t pairs = 0;
  double ms = s.time_ms([&] { return cuda::join_size(kind, da, m, db, n, &pairs); }, "counting");
  std::size_t* out_a = s.allocate<std::size_t>(pairs);
  std::size_t* out_b = s.allocate<std::size_t>(pairs);
  ms += s.time_ms([&] { return cuda::join(kind, da, m, db, n, out_a, out_b, pairs); }, "joining");
  pair_a.resize(pairs);
  pair_b.resize(pairs);
  s.download(pair_a.data(), out_a, pairs);
  s.download(pair_b.data(), out_b, pairs);
  return ms;
}

CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE_GPU_TOOLBOX)

}  // namespace corank::backend
