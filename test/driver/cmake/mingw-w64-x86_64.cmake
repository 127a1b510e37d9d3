# Cross-compile the reference driver for 64-bit Windows with mingw-w64.
#   cmake -S test/driver -B /tmp/rd-win \
#     -DCMAKE_TOOLCHAIN_FILE=$PWD/test/driver/cmake/mingw-w64-x86_64.cmake
# The -posix compilers are required: the win32-thread variant lacks std::mutex.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(REFDRV_MINGW_PREFIX x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${REFDRV_MINGW_PREFIX}-gcc-posix)
set(CMAKE_CXX_COMPILER ${REFDRV_MINGW_PREFIX}-g++-posix)
set(CMAKE_RC_COMPILER ${REFDRV_MINGW_PREFIX}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${REFDRV_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# no libgcc / libstdc++ / winpthread DLLs next to the outputs
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
