# SPDX-License-Identifier: MIT
# The optional libraries of the fusion tool, found once (top-level
# CMakeLists.txt) for tools/ and tests/.  A cross build looks in the
# target's root alone, where they are not.
#  - FUSION_SIM_BATCH: jansson, with which fusion sim's batch mode reads
#    the agent's JSON replies (tools/sim_batch.c);
#  - FUSION_SIM_GUI: libmicrohttpd, on which fusion sim --gui is built
#    (tools/sim_gui.c) and its tests run (tests/gui/).
function(fusion_find_optional flag prefix header library)
  find_path(${prefix}_INCLUDE_DIR ${header})
  find_library(${prefix}_LIBRARY ${library})
  if(${prefix}_INCLUDE_DIR AND ${prefix}_LIBRARY)
    set(${flag} ON PARENT_SCOPE)
  else()
    set(${flag} OFF PARENT_SCOPE)
  endif()
endfunction()
fusion_find_optional(FUSION_SIM_BATCH JANSSON jansson.h jansson)
fusion_find_optional(FUSION_SIM_GUI MHD microhttpd.h microhttpd)

# @target compiles @source, linked with @prefix's library, when @flag is
# ON; else @none, which says what to install, and the build says @why.
function(fusion_optional_source target flag prefix source none why)
  if(${flag})
    set_source_files_properties(${none} PROPERTIES HEADER_FILE_ONLY ON)
    target_include_directories(${target} PRIVATE ${${prefix}_INCLUDE_DIR})
    target_link_libraries(${target} PRIVATE ${${prefix}_LIBRARY})
  else()
    message(STATUS "${why}")
    set_source_files_properties(${source} PROPERTIES HEADER_FILE_ONLY ON)
  endif()
endfunction()
