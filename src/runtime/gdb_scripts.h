/* SPDX-License-Identifier: MIT */
/*
 * The .debug_gdb_scripts entry that names Fusion's gdb script
 * (tools/gdb/fusion-gdb.py, installed as share/gdb/auto-load/
 * fusion-gdb.py): gdb's documented way for a library to have its
 * script loaded with any program that links it, statically too.  gdb
 * looks the name up in its source path (`directory`), under its
 * auto-load safe-path.
 *
 * CMake includes this header in every object of the library: a static
 * link takes only the objects a program refers to, so one object of
 * its own would be left out.  The section's "MS" flags (mergeable
 * strings) make the linker keep one entry; byte 1 says a Python file.
 */
#ifndef FUSION_GDB_SCRIPTS_H
#define FUSION_GDB_SCRIPTS_H

__asm__(".pushsection \".debug_gdb_scripts\", \"MS\", @progbits, 1\n"
	".byte 1\n"
	".asciz \"fusion-gdb.py\"\n"
	".popsection\n");

#endif
