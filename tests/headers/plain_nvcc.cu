// The public GPU header built as a user of the headers alone builds it: plain nvcc -std=c++17,
// no --expt-relaxed-constexpr or --extended-lambda (the CMake target adds those for our own code).
// Compiling is the test: each entry point is instantiated once, keys and pairs.
#include <corank/cuda.cuh>

cudaError_t instantiate_every_entry_point(unsigned* k, float* v, std::size_t n, unsigned* offsets,
                                          std::size_t segments, cudaStream_t stream) {
  namespace cc = corank::cuda;
  cudaError_t e = cudaSuccess;
  const auto keep = [&e](cudaError_t r) { e = e == cudaSuccess ? r : e; };
  keep(cc::merge(k, n, k + n, n, k, corank::less{}, stream));
  keep(cc::merge_by_key(k, v, n, k + n, v + n, n, k, v, corank::greater{}, stream));
  keep(cc::stable_sort(k, n, corank::less{}, stream));
  keep(cc::stable_sort_by_key(k, v, n, corank::less{}, stream));
  keep(cc::bitonic_sort(k, n, corank::less{}, stream));
  keep(cc::bitonic_sort_by_key(k, v, n, corank::less{}, stream));
  keep(cc::sort_segments(k, n, offsets, segments, corank::less{}, stream));
  keep(cc::sort_segments_by_key(k, v, n, offsets, segments, corank::less{}, stream));
  keep(cc::stable_sort_segments(k, n, offsets, segments, corank::less{}, stream));
  keep(cc::stable_sort_segments_by_key(k, v, n, offsets, segments, corank::less{}, stream));
  keep(cc::segmented_inclusive_scan(v, v, n, offsets, segments, corank::plus{}, stream));
  keep(cc::segmented_exclusive_scan(v, v, n, offsets, segments, 0.0f, corank::plus{}, stream));
  keep(cc::scaled_segmented_inclusive_scan(v, v, v, n, offsets, segments, corank::plus{}, stream));
  keep(cc::scaled_segmented_scan_iterations({}, v, v, n, offsets, segments, 3, corank::plus{},
                                            stream));
  return e;
}

/// A stream-ordered memory resource, CCCL's shape (allocate(stream, bytes, alignment)).
struct some_resource {
  void* allocate(cuda::stream_ref, std::size_t, std::size_t) { return nullptr; }
  void deallocate(cuda::stream_ref, void*, std::size_t, std::size_t) {}
};

/// The memory resource and caller's-buffer forms of every entry point, and the queries.
cudaError_t instantiate_every_storage_form(unsigned* k, float* v, std::size_t n, unsigned* offsets,
                                           std::size_t segments, void* temp, cudaStream_t stream) {
  namespace cc = corank::cuda;
  some_resource r;
  cudaError_t e = cudaSuccess;
  const auto keep = [&e](cudaError_t x) { e = e == cudaSuccess ? x : e; };
  std::size_t bytes =
      cc::merge_temp_bytes<unsigned, float>(n, n) + cc::stable_sort_temp_bytes<unsigned, float>(n) +
      cc::bitonic_sort_temp_bytes<unsigned>(n) + cc::bitonic_sort_host_temp_bytes<unsigned>(n) +
      cc::segmented_scan_temp_bytes<float>(n) +
      cc::scaled_segmented_scan_iterations_temp_bytes<float>(n, 3);
  keep(cc::merge(r, k, n, k + n, n, k, corank::less{}, stream));
  keep(cc::merge(k, n, k + n, n, k, temp, bytes, corank::less{}, stream));
  keep(cc::merge_by_key(r, k, v, n, k + n, v + n, n, k, v, corank::less{}, stream));
  keep(cc::merge_by_key(k, v, n, k + n, v + n, n, k, v, temp, bytes, corank::less{}, stream));
  keep(cc::stable_sort(r, k, n, corank::less{}, stream));
  keep(cc::stable_sort(k, n, temp, bytes, corank::less{}, stream));
  keep(cc::stable_sort_by_key(r, k, v, n, corank::less{}, stream));
  keep(cc::stable_sort_by_key(k, v, n, temp, bytes, corank::less{}, stream));
  keep(cc::bitonic_sort(r, k, n, corank::less{}, stream));
  keep(cc::bitonic_sort(k, n, temp, bytes, corank::less{}, stream));
  keep(cc::bitonic_sort_by_key(r, k, v, n, corank::less{}, stream));
  keep(cc::bitonic_sort_by_key(k, v, n, temp, bytes, corank::less{}, stream));
  keep(cc::bitonic_sort_host(r, k, n, corank::less{}, nullptr, stream));
  keep(cc::bitonic_sort_host(k, n, temp, bytes, corank::less{}, nullptr, stream));
  keep(cc::segmented_inclusive_scan(r, v, v, n, offsets, segments, corank::plus{}, stream));
  keep(cc::segmented_inclusive_scan(v, v, n, offsets, segments, temp, bytes, corank::plus{},
                                    stream));
  keep(cc::segmented_exclusive_scan(r, v, v, n, offsets, segments, 0.0f, corank::plus{}, stream));
  keep(cc::segmented_exclusive_scan(v, v, n, offsets, segments, 0.0f, temp, bytes, corank::plus{},
                                    stream));
  keep(cc::scaled_segmented_inclusive_scan(r, v, v, v, n, offsets, segments, corank::plus{},
                                           stream));
  keep(cc::scaled_segmented_inclusive_scan(v, v, v, n, offsets, segments, temp, bytes,
                                           corank::plus{}, stream));
  keep(cc::scaled_segmented_scan_iterations(v, v, n, offsets, segments, 3, corank::plus{}, stream));
  keep(cc::scaled_segmented_scan_iterations(r, v, v, n, offsets, segments, 3, corank::plus{},
                                            stream));
  keep(cc::scaled_segmented_scan_iterations(v, v, n, offsets, segments, 3, temp, bytes,
                                            corank::plus{}, stream));
  keep(cc::set_cache_limit(bytes));
  keep(cc::cache_limit(&bytes));
  keep(cc::release_cached_memory());
  return e;
}
