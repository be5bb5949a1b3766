# SPDX-License-Identifier: MIT
# Cross build for aarch64 with Debian's cross compiler (gcc-aarch64-linux-gnu);
# CTest runs the tests through qemu-user (`make cross ARCH=aarch64`).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross.cmake)
