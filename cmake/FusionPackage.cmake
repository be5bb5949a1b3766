# SPDX-License-Identifier: MIT
# The CMake package of an installed Fusion: FusionConfig.cmake (from
# FusionConfig.cmake.in), its version file and FusionTargets.cmake (the
# libraries, as Fusion::shared, Fusion::static and Fusion::bootstrap),
# under LIBDIR/cmake/Fusion where find_package looks.  Included by the
# top-level CMakeLists.txt once the library targets exist.
include(CMakePackageConfigHelpers)

set_target_properties(fusion_shared PROPERTIES EXPORT_NAME shared)
set_target_properties(fusion_static PROPERTIES EXPORT_NAME static)
set_target_properties(fusion_bootstrap PROPERTIES EXPORT_NAME bootstrap)

set(FUSION_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Fusion)
install(EXPORT FusionTargets NAMESPACE Fusion:: DESTINATION ${FUSION_CMAKE_DIR})

# The skins and their include folders, from skins.cmake.
set(FUSION_PACKAGE_SKINS "")
foreach(skin ${FUSION_SKINS})
  string(APPEND FUSION_PACKAGE_SKINS
    "set(Fusion_${skin}_INCLUDE \"${FUSION_SKIN_${skin}_INCLUDE}\")\n")
endforeach()
# A sanitized library only links into sanitized programs.
set(FUSION_PACKAGE_CFLAGS "")
set(FUSION_PACKAGE_LDFLAGS "")
if(FUSION_SANITIZE)
  set(FUSION_PACKAGE_CFLAGS "-fsanitize=${FUSION_SANITIZE};-fno-omit-frame-pointer")
  set(FUSION_PACKAGE_LDFLAGS "-fsanitize=${FUSION_SANITIZE}")
endif()

set(FUSION_PACKAGE_STAGE ${PROJECT_BINARY_DIR}/cmake-package)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/FusionConfig.cmake.in
  ${FUSION_PACKAGE_STAGE}/FusionConfig.cmake
  INSTALL_DESTINATION ${FUSION_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
# SOVERSION is the major version: the same major, the same ABI.
write_basic_package_version_file(${FUSION_PACKAGE_STAGE}/FusionConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${FUSION_PACKAGE_STAGE}/FusionConfig.cmake
  ${FUSION_PACKAGE_STAGE}/FusionConfigVersion.cmake
  DESTINATION ${FUSION_CMAKE_DIR})
