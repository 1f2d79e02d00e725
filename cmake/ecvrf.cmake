# ecvrf's build settings. The kernel matrix: all (every variant of gpu/kernels/ecvrf_*.cu: 32 pipelines,
# several minutes of ptxas), or one (each kernel template once: the fused kernel on the fe51-portable oracle,
# the compacted pair on fe32-ptx at k = 2; what a gate on a machine without a GPU needs). auto (the default):
# all when this machine shows a GPU at configure time, else one. The gpu preset sets all.
set(BX_ECVRF_KERNELS auto CACHE STRING "ecvrf GPU variants compiled: auto, all or one")
set_property(CACHE BX_ECVRF_KERNELS PROPERTY STRINGS auto all one)
bx_resolve_auto(bx_ecvrf_kernels ${BX_ECVRF_KERNELS} all one)
if(NOT bx_ecvrf_kernels MATCHES "^(all|one)$")
  message(FATAL_ERROR "BX_ECVRF_KERNELS must be auto, all or one (got '${BX_ECVRF_KERNELS}')")
endif()
if(TARGET bx_kernels)
  message(STATUS "bitexact: ecvrf GPU kernels: ${bx_ecvrf_kernels} (BX_ECVRF_KERNELS=${BX_ECVRF_KERNELS})")
  if(bx_ecvrf_kernels STREQUAL "one")
    file(GLOB bx_ecvrf_cuda CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/gpu/kernels/ecvrf_*.cu)
    set_property(SOURCE ${bx_ecvrf_cuda} APPEND PROPERTY COMPILE_DEFINITIONS BX_ECVRF_KERNELS_ONE=1)
  endif()
endif()
if(TARGET bx_kernels)
  set_property(TARGET bx_kernels PROPERTY CUDA_COMPILER_LAUNCHER ${CMAKE_SOURCE_DIR}/cmake/cuda_deep_stack)
endif()
