# SPDX-License-Identifier: MIT
# libmicrohttpd, on which fusion sim --gui is built (tools/sim_gui.cmake)
# and its tests run (tests/gui/): FUSION_SIM_GUI is ON when it is found.
# A cross build looks in the target's root alone, where it is not.
find_path(MHD_INCLUDE_DIR microhttpd.h)
find_library(MHD_LIBRARY microhttpd)
if(MHD_INCLUDE_DIR AND MHD_LIBRARY)
  set(FUSION_SIM_GUI ON)
else()
  set(FUSION_SIM_GUI OFF)
endif()
