# SPDX-License-Identifier: MIT
# What every cross toolchain file shares (toolchain-ARCH.cmake sets
# CMAKE_SYSTEM_PROCESSOR first): Debian's ARCH-linux-gnu compiler, its
# sysroot, and qemu-ARCH as the emulator through which CTest runs each
# test executable.  -L: where qemu finds the dynamic loader and libc.
set(fusion_triplet ${CMAKE_SYSTEM_PROCESSOR}-linux-gnu)
set(CMAKE_C_COMPILER ${fusion_triplet}-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/${fusion_triplet})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-${CMAKE_SYSTEM_PROCESSOR} -L /usr/${fusion_triplet})
