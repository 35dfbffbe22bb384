// Umbrella header for the GPU side of corank (compile with nvcc). The host side is corank.hpp.
#pragma once

#include "corank/config.hpp"
#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/join.cuh"
#include "corank/cuda/load_balance.cuh"
#include "corank/cuda/merge.cuh"
#include "corank/cuda/merge_sort.cuh"
#include "corank/cuda/multiway_merge.cuh"
#include "corank/cuda/segmented_scan.cuh"
#include "corank/cuda/segmented_sort.cuh"
#include "corank/cuda/set_operations.cuh"
#include "corank/cuda/sorted_search.cuh"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"
#include "corank/merge_path_walk.hpp"
