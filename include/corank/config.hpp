// Portability macros shared by every backend.
#pragma once

#if defined(__CUDACC__)
#define CORANK_HD __host__ __device__ __forceinline__
#define CORANK_HAS_NVCC 1
#else
#define CORANK_HD inline
#define CORANK_HAS_NVCC 0
#endif

#define CORANK_VERSION_MAJOR 0
#define CORANK_VERSION_MINOR 1
#define CORANK_VERSION_PATCH 0
#define CORANK_VERSION_STRING "0.1.0"
