// The study's GPU variants, apart from the product (corank/cuda.cuh includes none of them): the
// basic, tiled and circular merges with their two optimisations, the thread- and warp-per-segment
// scans, and the bitonic sort of a host array with its transfer times (docs/study.md).
#pragma once

#include "corank/study/bitonic_sort_host.cuh"
#include "corank/study/merge.cuh"
#include "corank/study/segmented_scan.cuh"
