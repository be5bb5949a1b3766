# SPDX-License-Identifier: MIT
# Profile-guided optimization of the library (GCC).
#
# FUSION_PGO=generate builds the library instrumented: programs linked
# with it write its profile into FUSION_PGO_DIR as they run.
# FUSION_PGO=use builds it again from the same tree and directory, its
# branches laid out and its calls inlined as that profile says they
# run.  A wake-up's path then runs on fewer cache lines, which is most
# of what it costs once its CPU idled (bench/README.md).  Code the
# training run did not reach is optimized as usual.  bench/pgo-build
# does both, trained by the benchmarks.  Off by default: a profile is
# the run of one machine's build tree.
set(FUSION_PGO "" CACHE STRING
  "Profile-guided optimization of the library: generate, use, or empty (off)")
set(FUSION_PGO_DIR ${CMAKE_BINARY_DIR}/pgo CACHE PATH
  "Where FUSION_PGO=generate writes the profile and FUSION_PGO=use reads it")
if(FUSION_PGO AND NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "FUSION_PGO needs GCC (the compiler is ${CMAKE_C_COMPILER_ID})")
endif()
if(FUSION_PGO STREQUAL "generate")
  # Atomic counters: the library's threads run the same code at once.
  target_compile_options(fusion_objs PRIVATE
    -fprofile-generate=${FUSION_PGO_DIR} -fprofile-update=atomic)
  foreach(lib fusion_static fusion_shared)
    target_link_options(${lib} PUBLIC -fprofile-generate=${FUSION_PGO_DIR})
  endforeach()
elseif(FUSION_PGO STREQUAL "use")
  if(NOT EXISTS ${FUSION_PGO_DIR})
    message(FATAL_ERROR "FUSION_PGO=use: no profile in ${FUSION_PGO_DIR} "
      "(build with FUSION_PGO=generate and run programs first)")
  endif()
  # Sources no training program linked have no profile: not an error.
  target_compile_options(fusion_objs PRIVATE
    -fprofile-use=${FUSION_PGO_DIR} -fprofile-partial-training
    -Wno-missing-profile)
elseif(FUSION_PGO)
  message(FATAL_ERROR "FUSION_PGO=${FUSION_PGO}: generate, use or empty")
endif()
