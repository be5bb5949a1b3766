# SPDX-License-Identifier: MIT
# The skins Fusion builds, one fusion_skin() entry each (see
# cmake/FusionSkins.cmake).  Everything else is generated from this list:
# the library sources (src/skins/NAME/*.c), fusion-config --skin=NAME,
# fusion-NAME.pc and its installation, and the tests (every
# tests/TESTS/test_*.c runs on sim and on live).  Adding a skin is adding
# an entry here and its folders: docs/writing-a-skin.md.
#
#   fusion_skin(NAME
#     DESCRIPTION "..."   one line: fusion-config --help, fusion-NAME.pc
#     INCLUDE DIR         its headers, include/DIR; fusion-config --cflags
#                         gives -I<include>/DIR as well, so that
#                         `#include <task.h>` works as with xeno-config
#     TESTS DIR           its tests, tests/DIR/test_*.c
#     [ALIASES NAME...])  other names fusion-config --skin= takes
set(FUSION_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR})
include(${FUSION_SOURCE_DIR}/cmake/FusionSkins.cmake)

fusion_skin(alchemy
  DESCRIPTION "Alchemy API (Xenomai 3; native: its Xenomai 2 name)"
  INCLUDE alchemy
  TESTS alchemy
  ALIASES native)

fusion_skin(vxworks
  DESCRIPTION "VxWorks API (Wind River kernel: taskLib, semLib, msgQLib, wdLib...)"
  INCLUDE vxworks
  TESTS vxworks)

fusion_skin(psos
  DESCRIPTION "pSOS+ API (pSOSystem: tasks, events, semaphores, queues, time)"
  INCLUDE psos
  TESTS psos)

fusion_skin(rtai
  DESCRIPTION "RTAI/LXRT API (RTAI 3.x-5.x user-space tasks)"
  INCLUDE rtai
  TESTS rtai)
