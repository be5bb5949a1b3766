# SPDX-License-Identifier: MIT
# jansson, with which fusion sim's batch mode reads the agent's JSON
# replies (tools/sim_batch.c): FUSION_SIM_BATCH is ON when it is found.
# A cross build looks in the target's root alone, where it is not.
find_path(JANSSON_INCLUDE_DIR jansson.h)
find_library(JANSSON_LIBRARY jansson)
if(JANSSON_INCLUDE_DIR AND JANSSON_LIBRARY)
  set(FUSION_SIM_BATCH ON)
else()
  set(FUSION_SIM_BATCH OFF)
endif()
