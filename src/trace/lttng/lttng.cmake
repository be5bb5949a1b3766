# SPDX-License-Identifier: MIT
# The LTTng-UST provider (provider.c), when liblttng-ust is found: a
# module of its own, libfusion-lttng.so, which the recorder loads with
# dlopen when FUSION_TRACE asks for lttng, so that no other program
# loads liblttng-ust.  Its path in the build tree is compiled into the
# library (the module is not installed: see docs/architecture.md).
# Not in a cross build: pkg-config would find the host's library.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND AND NOT CMAKE_CROSSCOMPILING)
  pkg_check_modules(LTTNG_UST QUIET lttng-ust)
endif()
if(LTTNG_UST_FOUND)
  message(STATUS "LTTng-UST ${LTTNG_UST_VERSION}: the fusion provider is built")
  add_library(fusion_lttng MODULE ${CMAKE_CURRENT_LIST_DIR}/provider.c)
  set_target_properties(fusion_lttng PROPERTIES OUTPUT_NAME fusion-lttng
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})
  target_include_directories(fusion_lttng PRIVATE include ${CMAKE_CURRENT_LIST_DIR}
    ${LTTNG_UST_INCLUDE_DIRS})
  target_link_libraries(fusion_lttng PRIVATE ${LTTNG_UST_LINK_LIBRARIES})
  target_compile_definitions(fusion_objs PRIVATE
    FUSION_LTTNG_MODULE="$<TARGET_FILE:fusion_lttng>")
else()
  message(STATUS "LTTng-UST not found: no fusion provider "
    "(apt-get install liblttng-ust-dev)")
endif()
