# bitexact_add_plugin(<target> <source>... [DEFINITIONS <def>...]): a plugin bitexact loads with
# --plugin $<TARGET_FILE:target>: a MODULE library over include/bitexact/plugin.h (bitexact::plugin), its
# symbols hidden but the entry point (BX_PLUGIN_EXPORT), no "lib" prefix, position-independent.
# The same function in this repository's build and in an installed package (find_package(bitexact)).
function(bitexact_add_plugin target)
  cmake_parse_arguments(ARG "" "" "DEFINITIONS" ${ARGN})
  add_library(${target} MODULE ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${target} PRIVATE bitexact::plugin)
  target_compile_definitions(${target} PRIVATE ${ARG_DEFINITIONS})
  set_target_properties(${target} PROPERTIES PREFIX "" C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden
                                             CUDA_VISIBILITY_PRESET hidden POSITION_INDEPENDENT_CODE ON)
endfunction()
