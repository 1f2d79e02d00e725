# field25519's build settings. The per-implementation kernels (field25519_eval.cu: every op; field25519_x25519.cu:
# the ladder): all (every layout x backend, what the selftest, verify and bench run on a GPU), or one (fe32/ptx
# and fe51s/ptx only, the device-only carry paths: each kernel template once; the bulk kernel still runs
# every implementation, so every layout's device code is compiled). auto (the default): all when this machine shows a GPU at configure time, else one. The gpu
# preset sets all.
set(BX_FIELD25519_KERNELS auto CACHE STRING "field25519 per-implementation GPU kernels compiled: auto, all or one")
set_property(CACHE BX_FIELD25519_KERNELS PROPERTY STRINGS auto all one)
bx_resolve_auto(bx_f25519_kernels ${BX_FIELD25519_KERNELS} all one)
if(NOT bx_f25519_kernels MATCHES "^(all|one)$")
  message(FATAL_ERROR "BX_FIELD25519_KERNELS must be auto, all or one (got '${BX_FIELD25519_KERNELS}')")
endif()
if(TARGET bx_kernels)
  message(STATUS "bitexact: field25519 GPU kernels: ${bx_f25519_kernels} (BX_FIELD25519_KERNELS=${BX_FIELD25519_KERNELS})")
  if(bx_f25519_kernels STREQUAL "one")
    set_property(SOURCE ${CMAKE_SOURCE_DIR}/gpu/kernels/field25519_eval.cu ${CMAKE_SOURCE_DIR}/gpu/kernels/field25519_x25519.cu
                 APPEND PROPERTY COMPILE_DEFINITIONS BX_FIELD25519_KERNELS_ONE=1)
  endif()
endif()
