// Umbrella header for the host (CPU) side of corank. The GPU side is `corank/cuda.cuh`.
#pragma once

#include "corank/config.hpp"
#include "corank/cpu/join.hpp"
#include "corank/cpu/load_balance.hpp"
#include "corank/cpu/memory.hpp"
#include "corank/cpu/merge.hpp"
#include "corank/cpu/multiway_merge.hpp"
#include "corank/cpu/segmented_scan.hpp"
#include "corank/cpu/set_operations.hpp"
#include "corank/cpu/sort.hpp"
#include "corank/cpu/sorted_search.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"
#include "corank/merge_path_walk.hpp"
