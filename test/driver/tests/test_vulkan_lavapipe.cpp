// test_vulkan_lavapipe.cpp - a real Vulkan producer and consumer (Mesa's lavapipe)
// around this driver: memory exported with VK_KHR_external_memory_fd
// (VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) imported as
// CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR (spec: "File Descriptor Handle Types").
// Skipped (exit 77) when built without the Vulkan headers or when no lavapipe
// device is found; .ci/run installs libvulkan-dev and mesa-vulkan-drivers.
#include "harness.h"
#include "fd_util.h"

#if REFDRV_HAVE_VULKAN
#include <vulkan/vulkan.h>

namespace {

[[noreturn]] void skip(const std::string &why) {
  printf("SKIP %s\n", why.c_str());
  fflush(stdout);
  _Exit(77);
}
#define VK_OK(x)                                                                        \
  do {                                                                                  \
    VkResult r_ = (x);                                                                  \
    if (r_ != VK_SUCCESS) test_fail(__FILE__, __LINE__, #x " = " + std::to_string(r_)); \
  } while (0)

struct Vk {
  VkInstance inst = VK_NULL_HANDLE;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  VkDevice dev = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;
  VkCommandPool pool = VK_NULL_HANDLE;
  PFN_vkGetMemoryFdKHR get_fd = nullptr;

  Vk() {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (vkCreateInstance(&ici, nullptr, &inst) != VK_SUCCESS) skip("no Vulkan instance (libvulkan1 / an ICD missing)");
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(inst, &n, nullptr);
    std::vector<VkPhysicalDevice> pds(n);
    if (n) vkEnumeratePhysicalDevices(inst, &n, pds.data());
    for (auto p : pds) {
      VkPhysicalDeviceDriverProperties drv{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
      VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &drv};
      vkGetPhysicalDeviceProperties2(p, &props);
      if (drv.driverID == VK_DRIVER_ID_MESA_LLVMPIPE) pd = p;
    }
    if (!pd) skip("no lavapipe Vulkan device (Debian: apt-get install mesa-vulkan-drivers)");
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, nullptr);
    std::vector<VkQueueFamilyProperties> fams(nf);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, fams.data());
    for (uint32_t i = 0; i < nf; i++)
      if (fams[i].queueFlags & VK_QUEUE_TRANSFER_BIT) {
        family = i;
        break;
      }
    float prio = 1;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    const char *exts[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = exts;
    if (vkCreateDevice(pd, &dci, nullptr, &dev) != VK_SUCCESS) skip("lavapipe without VK_KHR_external_memory_fd");
    vkGetDeviceQueue(dev, family, 0, &queue);
    get_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(dev, "vkGetMemoryFdKHR"));
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = family;
    VK_OK(vkCreateCommandPool(dev, &pci, nullptr, &pool));
  }
  ~Vk() {
    if (pool) vkDestroyCommandPool(dev, pool, nullptr);
    if (dev) vkDestroyDevice(dev, nullptr);
    if (inst) vkDestroyInstance(inst, nullptr);
  }
  uint32_t host_visible_type(uint32_t bits) {
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
      if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) ==
                                    (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
        return i;
    test_fail(__FILE__, __LINE__, "no host-visible coherent memory type");
  }
  // a buffer with its own memory; exportable as an opaque fd when `exportable`
  void buffer(VkDeviceSize size, bool exportable, VkBuffer *buf, VkDeviceMemory *mem) {
    VkExternalMemoryBufferCreateInfo ext{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    ext.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, exportable ? &ext : nullptr};
    bci.size = size;
    bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VK_OK(vkCreateBuffer(dev, &bci, nullptr, buf));
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev, *buf, &mr);
    VkExportMemoryAllocateInfo exp{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    exp.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, exportable ? &exp : nullptr};
    mai.allocationSize = mr.size;
    mai.memoryTypeIndex = host_visible_type(mr.memoryTypeBits);
    VK_OK(vkAllocateMemory(dev, &mai, nullptr, mem));
    VK_OK(vkBindBufferMemory(dev, *buf, *mem, 0));
  }
  // records, submits and waits for one command buffer
  template <class F>
  void run(F record) {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cb;
    VK_OK(vkAllocateCommandBuffers(dev, &ai, &cb));
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK_OK(vkBeginCommandBuffer(cb, &bi));
    record(cb);
    VK_OK(vkEndCommandBuffer(cb));
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    VK_OK(vkCreateFence(dev, &fci, nullptr, &fence));
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    VK_OK(vkQueueSubmit(queue, 1, &si, fence));
    VK_OK(vkWaitForFences(dev, 1, &fence, VK_TRUE, 5000000000ull));
    vkDestroyFence(dev, fence, nullptr);
    vkFreeCommandBuffers(dev, pool, 1, &cb);
  }
};

}  // namespace

static void lavapipe_end_to_end() {
  Vk vk;
  const VkDeviceSize n = 1 << 20;
  VkBuffer shared, readback;
  VkDeviceMemory shared_mem, readback_mem;
  vk.buffer(n, true, &shared, &shared_mem);
  vk.buffer(n, false, &readback, &readback_mem);
  // Vulkan produces: a fill on the device
  vk.run([&](VkCommandBuffer cb) { vkCmdFillBuffer(cb, shared, 0, n, 0xA5C3E1F0u); });
  VkMemoryGetFdInfoKHR gi{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  gi.memory = shared_mem;
  gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int before = open_fd_count();
  int fd = -1;
  VK_OK(vk.get_fd(vk.dev, &gi, &fd));
  CHECK_EQ(open_fd_count(), before + 1);
  // OpenCL imports, checks the fill, writes its own pattern and releases
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c);
  cl_mem_properties props[] = {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, cl_mem_properties(fd), 0};
  cl_int e;
  cl_mem m = cl.clCreateBufferWithProperties(c, props, CL_MEM_READ_WRITE, n, nullptr, &e);
  CHECK_OK(e);
  CHECK_EQ(open_fd_count(), before + 1);  // the driver owns the fd now
  CHECK_OK(cl.clEnqueueAcquireExternalMemObjectsKHR(q, 1, &m, 0, nullptr, nullptr));
  std::vector<uint32_t> words(n / 4);
  CHECK_OK(cl.clEnqueueReadBuffer(q, m, CL_TRUE, 0, n, words.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < words.size(); i++)
    if (words[i] != 0xA5C3E1F0u) test_fail(__FILE__, __LINE__, "word " + std::to_string(i) + " is not Vulkan's fill");
  auto pat = pattern(n, 77);
  cl_mem src = cl.clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, pat.data(), &e);
  CHECK_OK(e);
  cl_program p;
  cl_kernel k = builtin_kernel(c, "copy_buffer", &p);
  CHECK_OK(cl.clSetKernelArg(k, 0, sizeof(cl_mem), &src));
  CHECK_OK(cl.clSetKernelArg(k, 1, sizeof(cl_mem), &m));
  size_t g = n;
  CHECK_OK(cl.clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr));
  CHECK_OK(cl.clEnqueueReleaseExternalMemObjectsKHR(q, 1, &m, 0, nullptr, nullptr));
  CHECK_OK(cl.clFinish(q));
  // Vulkan consumes: a copy on the device into a buffer of its own, read on the host
  vk.run([&](VkCommandBuffer cb) {
    VkBufferCopy region{0, 0, n};
    vkCmdCopyBuffer(cb, shared, readback, 1, &region);
  });
  void *mapped = nullptr;
  VK_OK(vkMapMemory(vk.dev, readback_mem, 0, n, 0, &mapped));
  CHECK(memcmp(mapped, pat.data(), n) == 0);
  vkUnmapMemory(vk.dev, readback_mem);
  // releasing the memory object closes the imported fd; Vulkan's memory lives on
  cl.clReleaseKernel(k);
  cl.clReleaseProgram(p);
  cl.clReleaseMemObject(src);
  CHECK_OK(cl.clReleaseMemObject(m));
  CHECK_OK(rd.refdrv_wait_idle(5000));
  CHECK_EQ(open_fd_count(), before);
  CHECK(!fd_open(fd));
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
  vkDestroyBuffer(vk.dev, shared, nullptr);
  vkDestroyBuffer(vk.dev, readback, nullptr);
  vkFreeMemory(vk.dev, shared_mem, nullptr);
  vkFreeMemory(vk.dev, readback_mem, nullptr);
}

#endif

TEST("khr_external_memory.fd_handles.opaque_fd.lavapipe_end_to_end") {
#if REFDRV_HAVE_VULKAN
  lavapipe_end_to_end();
#else
  printf("SKIP built without the Vulkan headers (Debian: apt-get install libvulkan-dev mesa-vulkan-drivers)\n");
  fflush(stdout);
  _Exit(77);
#endif
}
