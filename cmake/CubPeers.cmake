# corank_add_cub_peers(<name> <build> <include_dir> <sources>...)
#
# An OBJECT library of <sources> compiled against one CUB, for benchmarks that compare with two
# CUBs in one binary (tools/bench/cub_peers.hpp says how the sources are written). <build> is
# `toolkit` or `newest` (the source sees CORANK_CUB_BUILD=<build>); <include_dir> is a CCCL
# include directory searched before the toolkit's (empty: the toolkit's CUB).
#
# Two CCCL versions in one binary: CUB's and thrust's symbols carry their version in an inline
# namespace (cub::_V_300600_SM_900), libcu++'s do not (cuda::std::__4 in 3.0 and 3.6 alike), so
# the newer build gets its own libcu++ ABI namespace; the objects then share no symbol apart from
# the C++ standard library's and NVTX's (the same headers in both). Check with
#   docs/notes/cub-versions.md.
function(corank_add_cub_peers name build include_dir)
  add_library(${name} OBJECT ${ARGN})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tools)
  target_link_libraries(${name} PRIVATE corank CUDA::cudart_static corank_warnings)
  target_compile_definitions(${name} PRIVATE CORANK_CUB_BUILD=${build})
  if(include_dir)
    if(NOT EXISTS ${include_dir}/cub/version.cuh)
      message(FATAL_ERROR "${include_dir} holds no CUB (scripts/fetch_cccl.sh fetches one)")
    endif()
    file(STRINGS ${include_dir}/cub/version.cuh _version REGEX "^#define CUB_VERSION [0-9]+")
    string(REGEX MATCH "[0-9]+" _version "${_version}")
    message(STATUS "corank: benchmarks' ${build} CUB ${_version} from ${include_dir}")
    target_include_directories(${name} BEFORE PRIVATE ${include_dir})
    target_compile_definitions(${name} PRIVATE _LIBCUDACXX_ABI_NAMESPACE=__cccl_${build})
  endif()
endfunction()
