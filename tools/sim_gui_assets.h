/* SPDX-License-Identifier: MIT */
/*
 * The GUI's files: one flat folder, share/fusion/sim-gui next to the
 * bin/ folder of the running fusion, so that the build tree (build/bin,
 * build/share) and an installed tree (PREFIX/bin, PREFIX/share) find
 * theirs without a path fixed at build time.
 */
#ifndef FUSION_TOOL_SIM_GUI_ASSETS_H
#define FUSION_TOOL_SIM_GUI_ASSETS_H

#include <sys/types.h>

/*
 * Open the folder: a descriptor, or -errno (-ENOENT: not installed)
 * after naming the path on stderr.
 */
int sim_gui_assets_open(void);

/*
 * Open the file @name of the folder @dir for reading: its descriptor,
 * its size in *@size and its media type in *@type; -ENOENT when @name
 * is not a plain file name of a kind the page uses (no '/', no leading
 * '.', a known extension), is missing or is not a regular file.
 */
int sim_gui_asset_open(int dir, const char *name, const char **type,
		       off_t *size);

#endif
