# ecvrf's build settings. The kernel matrix: all (every variant of gpu/kernels/ecvrf_*.cu: 32 pipelines,
# several minutes of ptxas), or one (each kernel template once: the fused kernel on the fe51-portable oracle,
# the compacted pair on fe32-ptx at k = 2; what a gate on a machine without a GPU needs). auto (the default):
# all when this machine shows a GPU at configure time, else one. The gpu preset sets all. best: one, plus the
# fe51s pipelines (gpu/kernels/ecvrf_fe51s.cu whole: the fastest compacted pipelines, for a card run of the
# headline rate from a build that takes minutes, not the matrix's hour on two cores).
set(BX_ECVRF_KERNELS auto CACHE STRING "ecvrf GPU variants compiled: auto, all, one or best")
set_property(CACHE BX_ECVRF_KERNELS PROPERTY STRINGS auto all one best)
bx_resolve_auto(bx_ecvrf_kernels ${BX_ECVRF_KERNELS} all one)
if(NOT bx_ecvrf_kernels MATCHES "^(all|one|best)$")
  message(FATAL_ERROR "BX_ECVRF_KERNELS must be auto, all, one or best (got '${BX_ECVRF_KERNELS}')")
endif()
# The compacted pipelines' mult kernel shape, THREADS,MIN_BLOCKS (empty: the h2c kernel's 256,2): a build for
# weighing registers against warps on a card, bench against a default build in the same run.
set(BX_ECVRF_MULT_BOUNDS "" CACHE STRING "ecvrf mult kernel __launch_bounds__ as THREADS,MIN_BLOCKS (empty: 256,2)")
if(TARGET bx_kernels)
  message(STATUS "bitexact: ecvrf GPU kernels: ${bx_ecvrf_kernels} (BX_ECVRF_KERNELS=${BX_ECVRF_KERNELS})")
  file(GLOB bx_ecvrf_cuda CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/gpu/kernels/ecvrf_*.cu)
  if(bx_ecvrf_kernels MATCHES "^(one|best)$")
    set(bx_ecvrf_one ${bx_ecvrf_cuda})
    if(bx_ecvrf_kernels STREQUAL "best")
      list(REMOVE_ITEM bx_ecvrf_one ${CMAKE_SOURCE_DIR}/gpu/kernels/ecvrf_fe51s.cu)
    endif()
    set_property(SOURCE ${bx_ecvrf_one} APPEND PROPERTY COMPILE_DEFINITIONS BX_ECVRF_KERNELS_ONE=1)
  endif()
  if(NOT BX_ECVRF_MULT_BOUNDS STREQUAL "")
    if(NOT BX_ECVRF_MULT_BOUNDS MATCHES "^([0-9]+),([0-9]+)$")
      message(FATAL_ERROR "BX_ECVRF_MULT_BOUNDS must be THREADS,MIN_BLOCKS (got '${BX_ECVRF_MULT_BOUNDS}')")
    endif()
    set_property(SOURCE ${bx_ecvrf_cuda} APPEND PROPERTY COMPILE_DEFINITIONS
                 BX_ECVRF_MULT_THREADS=${CMAKE_MATCH_1} BX_ECVRF_MULT_MIN_BLOCKS=${CMAKE_MATCH_2})
    message(STATUS "bitexact: ecvrf mult kernel bounds ${CMAKE_MATCH_1} threads x ${CMAKE_MATCH_2} blocks")
  endif()
  set_property(TARGET bx_kernels PROPERTY CUDA_COMPILER_LAUNCHER ${CMAKE_SOURCE_DIR}/cmake/cuda_deep_stack)
endif()
