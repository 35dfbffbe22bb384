// Umbrella header for the host (CPU) side of corank. The GPU side is `corank/cuda.cuh`.
#pragma once

#include "corank/config.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"
#include "corank/cpu/merge.hpp"
#include "corank/cpu/segmented_scan.hpp"
#include "corank/cpu/sort.hpp"
