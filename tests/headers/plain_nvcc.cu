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
