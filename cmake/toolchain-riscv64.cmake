# SPDX-License-Identifier: MIT
# Cross build for riscv64 with Debian's cross compiler (gcc-riscv64-linux-gnu);
# CTest runs the tests through qemu-user (`make cross ARCH=riscv64`).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
include(${CMAKE_CURRENT_LIST_DIR}/cross.cmake)
