# q8parity's build rules (specs/q8parity.md "Build rules that parity depends on"). Its kernels name every
# fma (__fmaf_rn) and every separately rounded operation (__fmul_rn, __fadd_rn, __fdiv_rn, __fsqrt_rn),
# and are compiled so that nothing else changes them: no contraction, subnormals kept, IEEE division and
# square root. The host side is covered by the project-wide -ffp-contract=off (bx_options). The selftest's
# build-rules checks probe both from inside the translation units these flags apply to.
if(TARGET bx_kernels)
  file(GLOB bx_q8_cuda CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/gpu/kernels/q8parity_*.cu)
  set_source_files_properties(${bx_q8_cuda} PROPERTIES COMPILE_OPTIONS
                              "-fmad=false;-ftz=false;-prec-div=true;-prec-sqrt=true")
endif()
