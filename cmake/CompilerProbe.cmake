# Host-compiler wrong-code probe (include after project(), before any target).
#
# GCC 12.2 -O3 miscompiles the 9x29 column loop of gpu/field25519/fe29.hpp: after jump threading, FRE
# before SLP (fre4) value-numbers two copies of the index j = k - i as one and uses the range of the wrong
# copy, so a load a[j] takes another limb's value. cmake/probes/gcc_fre4_probe.cpp has the same loop and
# exits non-zero when it is miscompiled.
#
# For a GNU C++ compiler, the probe runs at CMAKE_CXX_FLAGS + CMAKE_CXX_FLAGS_<CONFIG> for the build type.
# If it fails, the first of "-fdisable-tree-fre4", "-O2" under which it passes is appended to the
# non-cache CMAKE_CXX_FLAGS_<CONFIG> of the including directory (the user's cache entry is left as is).
# Out: BX_HOST_OPT_FIX, the flags appended (empty if none were needed or the probe could not run).
include_guard(DIRECTORY)

set(BX_HOST_OPT_FIX "")
set(BX_PROBE_SOURCE "${CMAKE_CURRENT_LIST_DIR}/probes/gcc_fre4_probe.cpp")

# out <- TRUE when the probe built with the current CMAKE_CXX_FLAGS[_<cfg>] + `extra` exits 0.
function(_bx_fre4_probe out cfg extra)
  string(STRIP "${CMAKE_CXX_FLAGS_${cfg}} ${extra}" CMAKE_CXX_FLAGS_${cfg})  # local to this function
  set(CMAKE_TRY_COMPILE_CONFIGURATION ${cfg})  # else try_run uses the Debug flags
  file(SHA1 "${BX_PROBE_SOURCE}" src_hash)
  string(SHA1 key "${CMAKE_CXX_COMPILER};${CMAKE_CXX_COMPILER_VERSION};${CMAKE_CXX_FLAGS};${CMAKE_CXX_FLAGS_${cfg}};${src_hash}")
  string(SUBSTRING "${key}" 0 16 key)
  if(NOT DEFINED BX_FRE4_PROBE_${key})
    try_run(run_rc build_ok SOURCES "${BX_PROBE_SOURCE}" NO_CACHE
            COMPILE_OUTPUT_VARIABLE build_log RUN_OUTPUT_VARIABLE run_log)
    if(build_ok AND run_rc EQUAL 0)
      set(ok TRUE)
    else()
      set(ok FALSE)
      if(NOT build_ok)
        message(STATUS "bitexact: probe did not build with '${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${cfg}}':\n${build_log}")
      endif()
    endif()
    set(BX_FRE4_PROBE_${key} ${ok} CACHE INTERNAL "gcc_fre4_probe result for one compiler/flag set")
  endif()
  set(${out} ${BX_FRE4_PROBE_${key}} PARENT_SCOPE)
endfunction()

if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_BUILD_TYPE
   AND NOT (CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR))
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _bx_cfg)
  string(STRIP "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_bx_cfg}}" _bx_flags)
  set(_bx_who "GNU ${CMAKE_CXX_COMPILER_VERSION} at ${CMAKE_BUILD_TYPE} flags '${_bx_flags}'")
  _bx_fre4_probe(_bx_ok ${_bx_cfg} "")
  if(_bx_ok)
    message(STATUS "bitexact: ${_bx_who}: 9x29 column probe passes, no host optimisation fix")
  else()
    foreach(_bx_fix "-fdisable-tree-fre4" "-O2")
      _bx_fre4_probe(_bx_ok ${_bx_cfg} "${_bx_fix}")
      if(_bx_ok)
        set(BX_HOST_OPT_FIX "${_bx_fix}")
        string(STRIP "${CMAKE_CXX_FLAGS_${_bx_cfg}} ${_bx_fix}" CMAKE_CXX_FLAGS_${_bx_cfg})
        break()
      endif()
    endforeach()
    if(BX_HOST_OPT_FIX)
      message(STATUS "bitexact: ${_bx_who} miscompiles the 9x29 column loop (GCC fre4 wrong-code, "
                     "cmake/probes/gcc_fre4_probe.cpp); appending '${BX_HOST_OPT_FIX}' (re-probed: passes)")
    else()
      message(WARNING "bitexact: ${_bx_who} miscompiles the 9x29 column loop (GCC fre4 wrong-code) and "
                      "neither -fdisable-tree-fre4 nor -O2 fixes the probe; host results are not trustworthy")
    endif()
  endif()
  unset(_bx_cfg)
  unset(_bx_who)
  unset(_bx_flags)
  unset(_bx_ok)
  unset(_bx_fix)
endif()
