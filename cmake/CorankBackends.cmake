# The optional backends, found the same way by the library (../CMakeLists.txt) and the Python
# package (python/CMakeLists.txt).
#
# corank_enable_cuda(<result>)
#   Enables CUDA when nvcc is found (sm_90 unless CMAKE_CUDA_ARCHITECTURES says otherwise; C++17;
#   the CUDAToolkit targets) and sets <result> to ON, else to OFF. A macro: enable_language must be
#   called at directory scope.
#
# corank_link_highway(<target> <INTERFACE|PUBLIC|PRIVATE> <result>)
#   Where Highway (libhwy-dev) is found, links its hwy_contrib into <target> and defines
#   CORANK_WITH_HIGHWAY=1, so that the CPU sorts of integer keys use its vqsort
#   (include/corank/cpu/simd_sort.hpp); sets <result> to ON, else to OFF.

macro(corank_enable_cuda result)
  set(${result} OFF)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(${result} ON)
  endif()
endmacro()

function(corank_link_highway target scope result)
  find_package(hwy CONFIG QUIET)
  if(TARGET hwy::hwy_contrib)
    target_link_libraries(${target} ${scope} hwy::hwy_contrib)
    target_compile_definitions(${target} ${scope} CORANK_WITH_HIGHWAY=1)
    set(${result} ON PARENT_SCOPE)
  else()
    set(${result} OFF PARENT_SCOPE)
  endif()
endfunction()
