// external.h - what external_memory.cpp and semaphore.cpp share: file-descriptor
// helpers, the semaphore part of the platform/device queries, and the entry
// points' extension-function table.
#pragma once
#include "driver.h"

#include <string>

namespace refdrv_ext {

#if !defined(_WIN32)
// "/memfd:NAME (deleted)", "anon_inode:[eventfd]", "/dmabuf:..." ... or "" when fd is not open
std::string fd_target(int fd);
bool fd_is_open(int fd);
bool fd_is_memfd(int fd);
bool fd_is_dma_buf(int fd);  // a kernel dma-buf (anon_inode:dmabuf or /dmabuf:)
// A memfd whose size its other holders cannot lower (F_SEAL_SHRINK, memfd_create(2) "File sealing"): one
// without the seal may be cut under a mapping, and the mapping's next access is SIGBUS. Every memfd the driver
// maps must have it, as memory a real driver imports cannot shrink.
bool fd_sealed_against_shrink(int fd);
// A sync file (a kernel dma_fence exported to userspace): the kernel answers SYNC_IOC_FILE_INFO
// (<linux/sync_file.h>) on one and on nothing else, which is how a real driver tells one.
bool fd_is_sync_file(int fd);
// Seals a memfd the driver made (MFD_ALLOW_SEALING) against shrinking and growing.
bool seal_size(int fd);
#endif

// a property value that must hold a file descriptor: [0, INT_MAX], else -1
int fd_from_property(cl_ulong v);

bool semaphore_platform_info(cl_platform_info p, size_t sz, void *val, size_t *ret, cl_int *rc);
bool semaphore_device_info(cl_device_info p, size_t sz, void *val, size_t *ret, cl_int *rc);
void *semaphore_extension_function(const char *name);

// put a list of cl_uint values (handle types, semaphore types)
cl_int put_uints(size_t sz, void *val, size_t *ret, std::initializer_list<cl_uint> v);

}  // namespace refdrv_ext
