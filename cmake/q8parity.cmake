# q8parity's build rules (docs/specs/q8parity.md "Build rules that parity depends on"). Its kernels name every
# fma (__fmaf_rn) and every separately rounded operation (__fmul_rn, __fadd_rn, __fdiv_rn, __fsqrt_rn),
# and are compiled so that nothing else changes them: no contraction, subnormals kept, IEEE division and
# square root. The host side is covered by the project-wide -ffp-contract=off (bx_options). The selftest's
# build-rules checks probe both from inside the translation units these flags apply to.
if(TARGET bx_kernels)
  file(GLOB bx_q8_cuda CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/gpu/kernels/q8parity_*.cu)
  set_source_files_properties(${bx_q8_cuda} PROPERTIES COMPILE_OPTIONS
                              "-fmad=false;-ftz=false;-prec-div=true;-prec-sqrt=true")
endif()

# The kernel set: all (every matvec variant at every ntok), or one (each kernel template compiled once:
# the rolled token loop and the unrolled one at ntok 1; what a gate on a machine without a GPU needs, in a
# fraction of the nvcc time). auto (the default): all when this machine shows a GPU at configure time, else one. The gpu
# preset (binaries built here to run elsewhere) sets all.
set(BX_Q8_KERNELS auto CACHE STRING "q8parity matvec kernels compiled: auto, all or one")
set_property(CACHE BX_Q8_KERNELS PROPERTY STRINGS auto all one)
bx_resolve_auto(bx_q8_kernels ${BX_Q8_KERNELS} all one)
if(NOT bx_q8_kernels MATCHES "^(all|one)$")
  message(FATAL_ERROR "BX_Q8_KERNELS must be auto, all or one (got '${BX_Q8_KERNELS}')")
endif()
if(TARGET bx_kernels)
  message(STATUS "bitexact: q8parity GPU kernels: ${bx_q8_kernels} (BX_Q8_KERNELS=${BX_Q8_KERNELS})")
  if(bx_q8_kernels STREQUAL "one")
    set_property(SOURCE ${CMAKE_SOURCE_DIR}/gpu/kernels/q8parity_matvec.cu APPEND PROPERTY COMPILE_DEFINITIONS BX_Q8_KERNELS_ONE=1)
  endif()
endif()
