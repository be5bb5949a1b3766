# SPDX-License-Identifier: MIT
# fusion_skin(): one entry of the list of skins (skins.cmake).  Build
# rules, fusion-config, the pkg-config files and the test registrations
# read the list through the variables it sets in the caller's scope:
#   FUSION_SKINS                   the skin names, in list order
#   FUSION_SKIN_<name>_DESCRIPTION one line, for --help and the .pc file
#   FUSION_SKIN_<name>_INCLUDE     headers in include/<this>
#   FUSION_SKIN_<name>_TESTS       tests in tests/<this>
#   FUSION_SKIN_<name>_ALIASES     other names --skin= accepts
# and, for its own checks, FUSION_SKIN_NAMES_TAKEN (names and aliases).
# Also read in script mode at install time (tools/CMakeLists.txt), so it
# defines no target.
include_guard(GLOBAL)
# Script mode sets no policies: the functions below keep these.
cmake_policy(VERSION 3.16)

# Names fusion-config gives to the nucleus itself, and the folder of the
# foundation every skin shares: no skin may take them.
set(FUSION_RESERVED_NAMES nucleus fusion common)

function(fusion_skin name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DESCRIPTION;INCLUDE;TESTS" "ALIASES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "fusion_skin(${name}): unexpected '${arg_UNPARSED_ARGUMENTS}'")
  endif()
  foreach(field DESCRIPTION INCLUDE TESTS)
    if(NOT arg_${field})
      message(FATAL_ERROR "fusion_skin(${name}): ${field} is missing")
    endif()
  endforeach()
  # The name becomes a C symbol prefix, a folder, a file name and a
  # shell word; '|' separates the fields of fusion-config's table.
  foreach(n ${name} ${arg_ALIASES})
    if(NOT n MATCHES "^[a-z][a-z0-9_]*$")
      message(FATAL_ERROR "fusion_skin(${name}): '${n}' is not a name of lower-case letters, digits and _")
    endif()
    if(n IN_LIST FUSION_RESERVED_NAMES OR n IN_LIST FUSION_SKIN_NAMES_TAKEN)
      message(FATAL_ERROR "fusion_skin(${name}): the name '${n}' is taken")
    endif()
    list(APPEND FUSION_SKIN_NAMES_TAKEN ${n})
  endforeach()
  if(arg_DESCRIPTION MATCHES "[|\n]")
    message(FATAL_ERROR "fusion_skin(${name}): DESCRIPTION must be one line without '|'")
  endif()
  foreach(dir src/skins/${name} include/${arg_INCLUDE} tests/${arg_TESTS})
    if(NOT IS_DIRECTORY ${FUSION_SOURCE_DIR}/${dir})
      message(FATAL_ERROR "fusion_skin(${name}): no folder ${dir}")
    endif()
  endforeach()

  list(APPEND FUSION_SKINS ${name})
  set(FUSION_SKINS ${FUSION_SKINS} PARENT_SCOPE)
  set(FUSION_SKIN_NAMES_TAKEN ${FUSION_SKIN_NAMES_TAKEN} PARENT_SCOPE)
  foreach(field DESCRIPTION INCLUDE TESTS ALIASES)
    set(FUSION_SKIN_${name}_${field} "${arg_${field}}" PARENT_SCOPE)
  endforeach()
endfunction()

# The library sources of the skins: the shared foundation
# (src/skins/common/) and each listed skin's folder.  A folder of
# src/skins/ that is neither is an error, not a skin silently left out.
function(fusion_skin_sources out)
  file(GLOB dirs LIST_DIRECTORIES true RELATIVE ${FUSION_SOURCE_DIR}/src/skins
    ${FUSION_SOURCE_DIR}/src/skins/*)
  foreach(dir ${dirs})
    if(IS_DIRECTORY ${FUSION_SOURCE_DIR}/src/skins/${dir}
       AND NOT dir STREQUAL "common" AND NOT dir IN_LIST FUSION_SKINS)
      message(FATAL_ERROR "src/skins/${dir} is not a skin of skins.cmake")
    endif()
  endforeach()
  set(sources)
  foreach(dir common ${FUSION_SKINS})
    file(GLOB skin_sources CONFIGURE_DEPENDS ${FUSION_SOURCE_DIR}/src/skins/${dir}/*.c)
    list(APPEND sources ${skin_sources})
  endforeach()
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

# Service tracing (tools/gen-skin-services): every source of a skin but
# its services.c is compiled with its services.h in front, under the
# implementations' names, hidden; services.c exports the traced entry
# points.  The tracepoint list names each skin once: checked here.
function(fusion_skin_services sources)
  file(READ ${FUSION_SOURCE_DIR}/include/fusion/trace_points.h points)
  foreach(skin ${FUSION_SKINS})
    set(dir ${FUSION_SOURCE_DIR}/src/skins/${skin})
    if(NOT EXISTS ${dir}/services.c OR NOT EXISTS ${dir}/services.h)
      message(FATAL_ERROR "src/skins/${skin}: no services.c/services.h (run tools/gen-skin-services)")
    endif()
    string(TOUPPER ${skin} upper)
    if(NOT points MATCHES "NK_TRACEPOINT\\(${upper}, +${skin}, +${upper},")
      message(FATAL_ERROR "include/fusion/trace_points.h: no service tracepoint ${upper} for skin ${skin}")
    endif()
    foreach(src ${sources})
      if(src MATCHES "^${dir}/" AND NOT src STREQUAL "${dir}/services.c")
        set_property(SOURCE ${src} PROPERTY COMPILE_OPTIONS -include ${dir}/services.h)
      endif()
    endforeach()
  endforeach()
endfunction()
