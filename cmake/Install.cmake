# `cmake --install build --prefix P`: the bitexact binary, the embedded selftest (bitexact::selftest), the reference library (bitexact::reference),
# the host-usable headers with their one host symbol (bitexact::headers), the vectors and
# lib/cmake/bitexact/bitexactConfig.cmake, so another repository can find_package(bitexact) and test
# its own kernel's arithmetic against the reference and the vectors (examples/consumer).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS bitexact RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS bx_reference bx_gpu_host bx_plugin_headers bx_selftest_embed EXPORT bitexactTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/bitexact/plugin.h include/bitexact/selftest.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bitexact)
install(EXPORT bitexactTargets NAMESPACE bitexact:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/bitexact)

# Headers: gpu/core, every family's gpu/<family> (layouts, steps: what a kernel author reuses) and the
# references. Kernels and CLI code are not part of the package.
set(bx_header_dirs gpu/core reference/common)
foreach(fam ${BX_FAMILIES})
  list(APPEND bx_header_dirs gpu/${fam} reference/${fam})
endforeach()
foreach(dir ${bx_header_dirs})
  if(EXISTS ${CMAKE_SOURCE_DIR}/${dir})
    install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bitexact/${dir} FILES_MATCHING PATTERN "*.hpp")
  endif()
endforeach()
install(DIRECTORY vectors/ DESTINATION ${CMAKE_INSTALL_DATADIR}/bitexact/vectors FILES_MATCHING PATTERN "*.json")

configure_package_config_file(cmake/bitexactConfig.cmake.in ${CMAKE_BINARY_DIR}/bitexactConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/bitexact
                              PATH_VARS CMAKE_INSTALL_DATADIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/bitexactConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/bitexactConfig.cmake ${CMAKE_BINARY_DIR}/bitexactConfigVersion.cmake
              cmake/CompilerProbe.cmake cmake/BitexactPlugin.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/bitexact)
# The compiler probe travels with the package: a consumer compiling the headers with the GCC that
# miscompiles the 9x29 column loop gets the same fix, at its own flags (bitexactConfig.cmake).
install(FILES cmake/probes/gcc_fre4_probe.cpp DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/bitexact/probes)
