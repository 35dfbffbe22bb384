// Errors are values at the CUDA boundary: every public entry point returns cudaError_t.
#pragma once

#include <cuda_runtime.h>

/// Evaluates a cudaError_t expression and returns it from the enclosing function on failure.
#define CORANK_CUDA_TRY(expr)                                 \
  do {                                                        \
    const cudaError_t corank_status_ = (expr);                \
    if (corank_status_ != cudaSuccess) return corank_status_; \
  } while (0)
