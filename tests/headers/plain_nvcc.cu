// The public GPU headers built as a user of the headers alone builds them: plain nvcc -std=c++17,
// no --expt-relaxed-constexpr or --extended-lambda (the CMake target adds those for our own code).
// Compiling is the test: each entry point is instantiated once, keys and pairs, the study's too.
#include <corank/cuda.cuh>
#include <corank/study.cuh>

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
  keep(cc::segmented_inclusive_scan(v, n, offsets, segments, v, corank::plus{}, stream));
  keep(cc::segmented_exclusive_scan(v, n, offsets, segments, v, 0.0f, corank::plus{}, stream));
  keep(cc::scaled_segmented_inclusive_scan(v, v, n, offsets, segments, v, corank::plus{}, stream));
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
  std::size_t bytes = cc::merge_temp_bytes<unsigned, float>(n, n) +
                      cc::stable_sort_temp_bytes<unsigned, float>(n) +
                      cc::bitonic_sort_temp_bytes<unsigned>(n) +
                      corank::study::cuda::bitonic_sort_host_temp_bytes<unsigned>(n) +
                      cc::segmented_scan_temp_bytes<float>(n) +
                      cc::scaled_segmented_scan_iterations_temp_bytes<float>(n, 3) +
                      cc::stable_sort_segments_temp_bytes<unsigned, float>(n, segments) +
                      cc::sort_segments_temp_bytes<unsigned, float>(n, segments);
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
  keep(corank::study::cuda::bitonic_sort_host(r, k, n, corank::less{}, nullptr, stream));
  keep(corank::study::cuda::bitonic_sort_host(k, n, temp, bytes, corank::less{}, nullptr, stream));
  keep(cc::stable_sort_segments(r, k, n, offsets, segments, corank::less{}, stream));
  keep(cc::stable_sort_segments(k, n, offsets, segments, temp, bytes, corank::less{}, stream));
  keep(cc::stable_sort_segments_by_key(r, k, v, n, offsets, segments, corank::less{}, stream));
  keep(cc::stable_sort_segments_by_key(k, v, n, offsets, segments, temp, bytes, corank::less{},
                                       stream));
  keep(cc::sort_segments(r, k, n, offsets, segments, corank::less{}, stream));
  keep(cc::sort_segments(k, n, offsets, segments, temp, bytes, corank::less{}, stream));
  keep(cc::sort_segments_by_key(r, k, v, n, offsets, segments, corank::less{}, stream));
  keep(cc::sort_segments_by_key(k, v, n, offsets, segments, temp, bytes, corank::less{}, stream));
  keep(cc::segmented_inclusive_scan(r, v, n, offsets, segments, v, corank::plus{}, stream));
  keep(cc::segmented_inclusive_scan(v, n, offsets, segments, v, temp, bytes, corank::plus{},
                                    stream));
  keep(cc::segmented_exclusive_scan(r, v, n, offsets, segments, v, 0.0f, corank::plus{}, stream));
  keep(cc::segmented_exclusive_scan(v, n, offsets, segments, v, 0.0f, temp, bytes, corank::plus{},
                                    stream));
  keep(cc::scaled_segmented_inclusive_scan(r, v, v, n, offsets, segments, v, corank::plus{},
                                           stream));
  keep(cc::scaled_segmented_inclusive_scan(v, v, n, offsets, segments, v, temp, bytes,
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

/// The co-rank toolbox (issue 22): every entry point in each of its storage forms.
cudaError_t instantiate_the_toolbox(unsigned* k, float* v, std::size_t n, unsigned* offsets,
                                    std::size_t segments, void* temp, std::size_t bytes,
                                    std::size_t* count, cudaStream_t stream) {
  namespace cc = corank::cuda;
  some_resource r;
  cudaError_t e = cudaSuccess;
  const auto keep = [&e](cudaError_t x) { e = e == cudaSuccess ? x : e; };
  const auto on_device = cc::output_count::on_device(count);
  bytes += cc::load_balance_temp_bytes<unsigned>(segments, n) +
           cc::sorted_search_temp_bytes<unsigned, unsigned>(n, n) +
           cc::set_operation_temp_bytes<unsigned, float>(n, n) +
           cc::multiway_merge_temp_bytes<unsigned, float>(n, segments);
  keep(cc::load_balancing_search(offsets, segments, n, k, stream));
  keep(cc::load_balancing_search(r, offsets, segments, n, k, stream));
  keep(cc::load_balancing_search(offsets, segments, n, k, temp, bytes, stream));
  keep(cc::interval_expand(offsets, segments, v, n, v + n, stream));
  keep(cc::interval_expand(r, offsets, segments, v, n, v + n, stream));
  keep(cc::interval_expand(offsets, segments, v, n, v + n, temp, bytes, stream));
  keep(cc::sorted_lower_bound(k, n, k + n, n, k, corank::less{}, stream));
  keep(cc::sorted_upper_bound(r, k, n, k + n, n, k, corank::less{}, stream));
  keep(cc::sorted_lower_bound(k, n, k + n, n, k, temp, bytes, corank::less{}, stream));
  keep(cc::lower_bound(k, n, k + n, n, k, corank::less{}, stream));
  keep(cc::upper_bound(k, n, k + n, n, k, corank::less{}, stream));
  keep(cc::set_union(k, n, k + n, n, k, on_device, corank::less{}, stream));
  keep(cc::set_intersection_by_key(k, v, n, k + n, v + n, n, k, v, on_device, corank::less{},
                                   stream));
  keep(cc::set_operation(r, corank::set_op::difference, k, n, k + n, n, k, on_device));
  keep(cc::set_operation_by_key(corank::set_op::symmetric_difference, k, v, n, k + n, v + n, n, k,
                                v, cc::output_count::to_host(count), temp, bytes));
  keep(cc::multiway_merge(k, offsets, segments, n, k, corank::less{}, stream));
  keep(cc::multiway_merge(r, k, offsets, segments, n, k, corank::less{}, stream));
  keep(cc::multiway_merge_by_key(k, v, offsets, segments, n, k, v, temp, bytes, corank::less{},
                                 stream));
  keep(cc::join_size(corank::join_kind::full_outer, k, n, k + n, n, count, corank::less{}, stream));
  keep(cc::join(corank::join_kind::inner, k, n, k + n, n, count, count + n, n, corank::less{},
                stream));
  return e;
}

/// The study's entry points (corank/study.cuh): its merges, scans and the host sort.
cudaError_t instantiate_the_study(unsigned* k, float* v, std::size_t n, unsigned* offsets,
                                  std::size_t segments, cudaStream_t stream) {
  namespace sc = corank::study::cuda;
  cudaError_t e = cudaSuccess;
  const auto keep = [&e](cudaError_t x) { e = e == cudaSuccess ? x : e; };
  sc::merge_options opt;
  opt.algorithm = corank::cuda::merge_algorithm::tiled;
  keep(sc::merge(opt, k, n, k + n, n, k, corank::less{}, stream));
  keep(sc::merge_by_key(opt, k, v, n, k + n, v + n, n, k, v, corank::less{}, stream));
  const auto warp = sc::segmented_scan_algorithm::warp_per_segment;
  keep(sc::segmented_inclusive_scan(warp, v, n, offsets, segments, v, corank::plus{}, stream));
  keep(
      sc::segmented_exclusive_scan(warp, v, n, offsets, segments, v, 0.0f, corank::plus{}, stream));
  keep(sc::scaled_segmented_inclusive_scan(warp, v, v, n, offsets, segments, v, corank::plus{},
                                           stream));
  keep(sc::scaled_segmented_scan_iterations(warp, v, v, n, offsets, segments, 3, corank::plus{},
                                            stream));
  sc::transfer_timings t;
  keep(sc::bitonic_sort_host(k, n, corank::less{}, &t, stream));
  return e;
}
