# SPDX-License-Identifier: MIT
# fusion_config_files(): fusion-config and one fusion-API.pc per API (the
# nucleus and every skin of skins.cmake), for one tree.  Run at configure
# time for the build tree and at install time for the installed one
# (tools/CMakeLists.txt), so it reads only variables:
#   FC_TREE            "build" or "install", named in the files
#   FC_PREFIX          the tree's prefix
#   FC_INCLUDEDIR      its headers (an absolute path)
#   FC_LIBDIR          its libraries (an absolute path)
#   FUSION_VERSION, CMAKE_C_COMPILER, FC_EXTRA_CFLAGS, FC_EXTRA_LDFLAGS
# Writes CONFIG_DIR/fusion-config and PC_DIR/fusion-API.pc.
include_guard(GLOBAL)
cmake_policy(VERSION 3.16)
set(FC_TEMPLATES ${CMAKE_CURRENT_LIST_DIR})

# One .pc file.  Skin programs get the main() wrapper (their calls take
# no instance argument), as fusion-config --skin=API does by default.
function(fusion_pc_file pc_dir api description include wrapped)
  set(PC_API ${api})
  set(PC_DESCRIPTION "${description}")
  set(PC_CFLAGS "")
  if(include)
    set(PC_CFLAGS " -I\${includedir}/${include}")
  endif()
  set(PC_WRAP "")
  set(PC_BOOTSTRAP "")
  if(wrapped)
    set(PC_WRAP "-Wl,--wrap=main ")
    set(PC_BOOTSTRAP " -lfusion-bootstrap")
  endif()
  # Directories under the prefix are named from ${prefix}, so that
  # pkg-config --define-variable=prefix=DIR finds a moved tree.
  foreach(dir INCLUDEDIR LIBDIR)
    file(RELATIVE_PATH rel "${FC_PREFIX}" "${FC_${dir}}")
    if(rel MATCHES "^\\.\\./")
      set(PC_${dir} "${FC_${dir}}")
    else()
      set(PC_${dir} "\${prefix}/${rel}")
    endif()
  endforeach()
  configure_file(${FC_TEMPLATES}/fusion.pc.in ${pc_dir}/fusion-${api}.pc @ONLY)
endfunction()

function(fusion_config_files config_dir pc_dir)
  # fusion-config's table of APIs, one line each:
  # NAME|ALIASES|INCLUDE SUBDIRECTORY|DESCRIPTION.
  set(nucleus_description "the bare nucleus API (nk_*)")
  set(FC_APIS "nucleus|fusion||${nucleus_description}")
  fusion_pc_file(${pc_dir} nucleus "${nucleus_description}" "" FALSE)
  foreach(skin ${FUSION_SKINS})
    string(JOIN " " aliases ${FUSION_SKIN_${skin}_ALIASES})
    string(APPEND FC_APIS "\n${skin}|${aliases}|${FUSION_SKIN_${skin}_INCLUDE}|${FUSION_SKIN_${skin}_DESCRIPTION}")
    fusion_pc_file(${pc_dir} ${skin} "${FUSION_SKIN_${skin}_DESCRIPTION}"
      ${FUSION_SKIN_${skin}_INCLUDE} TRUE)
  endforeach()
  configure_file(${FC_TEMPLATES}/fusion-config.in ${config_dir}/fusion-config @ONLY)
endfunction()
