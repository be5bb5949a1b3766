# SPDX-License-Identifier: MIT
# fusion sim --gui (sim_gui.c): built on libmicrohttpd when it is found;
# without it, sim_gui_none.c says what to install.  The page's files
# (sim-gui/) go where sim_gui_assets.c looks, beside bin/: copied into
# the build tree's share/ at each build, installed to PREFIX/share.
fusion_optional_source(fusion FUSION_SIM_GUI MHD
  ${CMAKE_CURRENT_LIST_DIR}/sim_gui.c ${CMAKE_CURRENT_LIST_DIR}/sim_gui_none.c
  "libmicrohttpd not found: fusion sim --gui is not built (apt-get install libmicrohttpd-dev)")

file(GLOB FUSION_GUI_FILES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/sim-gui/*)
set(FUSION_GUI_DIR ${PROJECT_BINARY_DIR}/share/fusion/sim-gui)
set(FUSION_GUI_COPIES)
foreach(file ${FUSION_GUI_FILES})
  get_filename_component(name ${file} NAME)
  add_custom_command(OUTPUT ${FUSION_GUI_DIR}/${name}
    COMMAND ${CMAKE_COMMAND} -E copy ${file} ${FUSION_GUI_DIR}/${name}
    DEPENDS ${file} VERBATIM)
  list(APPEND FUSION_GUI_COPIES ${FUSION_GUI_DIR}/${name})
endforeach()
add_custom_target(fusion_gui_files ALL DEPENDS ${FUSION_GUI_COPIES})
add_dependencies(fusion fusion_gui_files)
install(FILES ${FUSION_GUI_FILES}
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fusion/sim-gui)
