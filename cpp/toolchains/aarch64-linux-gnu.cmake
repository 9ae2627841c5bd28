# Cross-compiling for 64-bit Arm Linux with Debian's cross toolchain
# (apt-get install g++-aarch64-linux-gnu qemu-user), used by
# .ci/cross-aarch64 for the C++ kernel tests:
#   cmake -S . -B build/cross-aarch64 -DTURBOMETRICS_BUILD_TESTS=ON \
#     -DCMAKE_TOOLCHAIN_FILE=cpp/toolchains/aarch64-linux-gnu.cmake
#   cmake --build build/cross-aarch64 && ctest --test-dir build/cross-aarch64
# ctest (and doctest's test discovery at build time) run the aarch64
# executables under qemu-user, with the cross sysroot as the loader's root.
# TURBOMETRICS_AARCH64_PREFIX overrides the triplet prefix and
# TURBOMETRICS_AARCH64_SYSROOT the target's root (/usr/aarch64-linux-gnu).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

if(NOT DEFINED TURBOMETRICS_AARCH64_PREFIX)
  set(TURBOMETRICS_AARCH64_PREFIX aarch64-linux-gnu-)
endif()
if(NOT DEFINED TURBOMETRICS_AARCH64_SYSROOT)
  set(TURBOMETRICS_AARCH64_SYSROOT /usr/aarch64-linux-gnu)
endif()

set(CMAKE_C_COMPILER ${TURBOMETRICS_AARCH64_PREFIX}gcc)
set(CMAKE_CXX_COMPILER ${TURBOMETRICS_AARCH64_PREFIX}g++)

find_program(TURBOMETRICS_QEMU_AARCH64 qemu-aarch64)
if(TURBOMETRICS_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${TURBOMETRICS_QEMU_AARCH64} -L ${TURBOMETRICS_AARCH64_SYSROOT})
endif()

# Libraries from the target's root only; programs from the host; headers and
# CMake packages from either (doctest is header-only and installed for the
# host, which serves every architecture).
set(CMAKE_FIND_ROOT_PATH ${TURBOMETRICS_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
