# Installation of the C library and its CMake package:
#   include/batchnormgrad.h, lib/libbatchnormgrad_<t>.so* and .a,
#   lib/cmake/BatchNormGrad/ (config, version, targets).
# Install components: bng_runtime (the versioned shared objects) and
# bng_development (everything else), so a packager can split them.
include(CMakePackageConfigHelpers)

set(BNG_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/BatchNormGrad)

# Every target of the registry (cmake/BngTargets.cmake).
set(bng_shared_libraries)
set(bng_static_libraries)
foreach(target IN LISTS BNG_TARGETS)
  list(APPEND bng_shared_libraries batchnormgrad_${target})
  list(APPEND bng_static_libraries batchnormgrad_${target}_static)
endforeach()
install(TARGETS ${bng_shared_libraries}
        EXPORT BatchNormGradTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT bng_runtime
                NAMELINK_COMPONENT bng_development)
install(TARGETS ${bng_static_libraries}
        EXPORT BatchNormGradStaticTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT bng_development)
install(FILES ${PROJECT_SOURCE_DIR}/include/batchnormgrad.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT bng_development)

# Two export sets so that a consumer of the shared libraries alone
# (COMPONENTS shared) needs neither Highway nor Threads installed.
install(EXPORT BatchNormGradTargets
        NAMESPACE BatchNormGrad::
        DESTINATION ${BNG_PACKAGE_DIR} COMPONENT bng_development)
install(EXPORT BatchNormGradStaticTargets
        NAMESPACE BatchNormGrad::
        DESTINATION ${BNG_PACKAGE_DIR} COMPONENT bng_development)

list(JOIN BNG_TARGETS ", " BNG_TARGETS_TEXT)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/BatchNormGradConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/BatchNormGradConfig.cmake
  INSTALL_DESTINATION ${BNG_PACKAGE_DIR})
# The SOVERSION is the major version: within one major version the C ABI
# (entry points, status values, params layout) does not change.
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/BatchNormGradConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/BatchNormGradConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/BatchNormGradConfigVersion.cmake
        DESTINATION ${BNG_PACKAGE_DIR} COMPONENT bng_development)
