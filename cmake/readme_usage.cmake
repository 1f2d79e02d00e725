# README's Commands block (between the usage markers, inside its ```text fence) must equal `bitexact usage`.
#   cmake -DBITEXACT=... -DREADME=... [-DPLANT=1] -P readme_usage.cmake
# PLANT=1 is the negative control: it runs the same extraction and comparison on a copy of README whose
# block lacks one option (an option added to the program without README changing) and passes only if that
# copy is reported as differing, while README itself compares equal.
execute_process(COMMAND ${BITEXACT} usage OUTPUT_VARIABLE want RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR want STREQUAL "")
  message(FATAL_ERROR "bitexact usage failed (${rc})")
endif()

# block_equals(text result): result = TRUE when text holds a Commands block equal to `want`; FALSE when the
# block differs; NOBLOCK when there is none.
function(block_equals text out)
  string(REGEX MATCH "<!-- usage: begin[^\n]*\n```text\n(.*)\n```\n<!-- usage: end -->" block "${text}")
  if(NOT block)
    set(${out} NOBLOCK PARENT_SCOPE)
  elseif("${CMAKE_MATCH_1}\n" STREQUAL want)
    set(${out} TRUE PARENT_SCOPE)
  else()
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/readme_usage.want "${want}")
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/readme_usage.have "${CMAKE_MATCH_1}\n")
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

file(READ ${README} readme)
block_equals("${readme}" same)
if(same STREQUAL NOBLOCK)
  message(FATAL_ERROR "${README}: no Commands block between <!-- usage: begin --> and <!-- usage: end -->")
endif()
if(PLANT)
  if(NOT same)
    message(FATAL_ERROR "negative control: README itself differs from `bitexact usage` (run ci/usage --write first)")
  endif()
  string(REGEX REPLACE " \\[--json\\]" "" drifted "${readme}")
  if(drifted STREQUAL readme)
    message(FATAL_ERROR "negative control: README's block has no [--json] to drop")
  endif()
  block_equals("${drifted}" planted)
  if(planted)
    message(FATAL_ERROR "negative control: a README block without [--json] compared equal to the program")
  endif()
  message(STATUS "negative control: an option missing from README's block is reported as a difference")
  return()
endif()
if(NOT same)
  message(FATAL_ERROR "README.md's Commands block differs from `bitexact usage`: run ci/usage --write "
                      "(diff ${CMAKE_CURRENT_BINARY_DIR}/readme_usage.have ${CMAKE_CURRENT_BINARY_DIR}/readme_usage.want)")
endif()
message(STATUS "README.md's Commands block equals `bitexact usage`")
