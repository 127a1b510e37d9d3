// The Vulkan types, structures and tokens the Vulkan module uses, declared
// here so that the addon builds without Vulkan headers (values and layouts
// from the Vulkan 1.3 registry, vulkan_core.h / vulkan_win32.h). Only what
// the module calls is declared; names keep the registry's spelling.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(_WIN32)
#define OCL_VKAPI __stdcall
#else
#define OCL_VKAPI
#endif

namespace ocl {
namespace vk {

using VkFlags = uint32_t;
using VkBool32 = uint32_t;
using VkDeviceSize = uint64_t;
using VkResult = int32_t;
using VkStructureType = int32_t;
using VkFormat = int32_t;

// Dispatchable handles are pointers; non-dispatchable ones are 64-bit on every platform.
struct VkInstance_T;
struct VkPhysicalDevice_T;
struct VkDevice_T;
struct VkQueue_T;
struct VkCommandBuffer_T;
using VkInstance = VkInstance_T*;
using VkPhysicalDevice = VkPhysicalDevice_T*;
using VkDevice = VkDevice_T*;
using VkQueue = VkQueue_T*;
using VkCommandBuffer = VkCommandBuffer_T*;
using VkBuffer = uint64_t;
using VkImage = uint64_t;
using VkDeviceMemory = uint64_t;
using VkSemaphore = uint64_t;
using VkFence = uint64_t;
using VkCommandPool = uint64_t;
using VkShaderModule = uint64_t;
using VkPipeline = uint64_t;
using VkPipelineLayout = uint64_t;
using VkPipelineCache = uint64_t;
using VkDescriptorSetLayout = uint64_t;
using VkDescriptorPool = uint64_t;
using VkDescriptorSet = uint64_t;
using VkSampler = uint64_t;
using VkBufferView = uint64_t;
using VkImageView = uint64_t;

constexpr VkResult VK_SUCCESS = 0;
constexpr VkResult VK_NOT_READY = 1;
constexpr VkResult VK_TIMEOUT = 2;
constexpr VkResult VK_INCOMPLETE = 5;
constexpr VkResult VK_ERROR_OUT_OF_HOST_MEMORY = -1;
constexpr VkResult VK_ERROR_OUT_OF_DEVICE_MEMORY = -2;
constexpr VkResult VK_ERROR_INITIALIZATION_FAILED = -3;
constexpr VkResult VK_ERROR_DEVICE_LOST = -4;
constexpr VkResult VK_ERROR_EXTENSION_NOT_PRESENT = -7;
constexpr VkResult VK_ERROR_FEATURE_NOT_PRESENT = -8;
constexpr VkResult VK_ERROR_INCOMPATIBLE_DRIVER = -9;
constexpr VkResult VK_ERROR_FORMAT_NOT_SUPPORTED = -11;

constexpr uint32_t VK_UUID_SIZE = 16;
constexpr uint32_t VK_LUID_SIZE = 8;
constexpr uint32_t VK_MAX_EXTENSION_NAME_SIZE = 256;
constexpr uint32_t VK_MAX_PHYSICAL_DEVICE_NAME_SIZE = 256;
constexpr uint32_t VK_MAX_DRIVER_NAME_SIZE = 256;
constexpr uint32_t VK_MAX_DRIVER_INFO_SIZE = 256;
constexpr uint32_t VK_MAX_MEMORY_TYPES = 32;
constexpr uint32_t VK_MAX_MEMORY_HEAPS = 16;
constexpr uint32_t VK_QUEUE_FAMILY_IGNORED = ~0u;
constexpr uint32_t VK_QUEUE_FAMILY_EXTERNAL = ~1u;
constexpr uint64_t VK_WHOLE_SIZE = ~0ull;

constexpr uint32_t VkMakeApiVersion(uint32_t major, uint32_t minor, uint32_t patch) { return (major << 22) | (minor << 12) | patch; }

enum : VkStructureType {
  VK_STRUCTURE_TYPE_APPLICATION_INFO = 0,
  VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1,
  VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO = 2,
  VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO = 3,
  VK_STRUCTURE_TYPE_SUBMIT_INFO = 4,
  VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO = 5,
  VK_STRUCTURE_TYPE_FENCE_CREATE_INFO = 8,
  VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO = 9,
  VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO = 12,
  VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO = 14,
  VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO = 16,
  VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO = 18,
  VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO = 29,
  VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO = 30,
  VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO = 32,
  VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO = 33,
  VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO = 34,
  VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET = 35,
  VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO = 39,
  VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO = 40,
  VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO = 42,
  VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER = 44,
  VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER = 45,
  VK_STRUCTURE_TYPE_MEMORY_BARRIER = 46,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 = 1000059000,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001,
  VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2 = 1000059003,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2 = 1000059004,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO = 1000071000,
  VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES = 1000071001,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO = 1000071002,
  VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES = 1000071003,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES = 1000071004,
  VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO = 1000072000,
  VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO = 1000072001,
  VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO = 1000072002,
  VK_STRUCTURE_TYPE_MEMORY_GET_WIN32_HANDLE_INFO_KHR = 1000073003,
  VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR = 1000074002,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO = 1000076000,
  VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES = 1000076001,
  VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO = 1000077000,
  VK_STRUCTURE_TYPE_SEMAPHORE_GET_WIN32_HANDLE_INFO_KHR = 1000078003,
  VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR = 1000079001,
  VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS = 1000127000,
  VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO = 1000127001,
  VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2 = 1000146000,
  VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2 = 1000146001,
  VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2 = 1000146003,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES = 1000156004,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES = 1000196000,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT = 1000212000,
};

// Flags and enumerants.
constexpr VkFlags VK_QUEUE_GRAPHICS_BIT = 0x1, VK_QUEUE_COMPUTE_BIT = 0x2, VK_QUEUE_TRANSFER_BIT = 0x4;
constexpr VkFlags VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT = 0x1, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT = 0x2, VK_MEMORY_PROPERTY_HOST_COHERENT_BIT = 0x4,
                  VK_MEMORY_PROPERTY_HOST_CACHED_BIT = 0x8;
constexpr VkFlags VK_BUFFER_USAGE_TRANSFER_SRC_BIT = 0x1, VK_BUFFER_USAGE_TRANSFER_DST_BIT = 0x2, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT = 0x20;
constexpr VkFlags VK_IMAGE_USAGE_TRANSFER_SRC_BIT = 0x1, VK_IMAGE_USAGE_TRANSFER_DST_BIT = 0x2, VK_IMAGE_USAGE_SAMPLED_BIT = 0x4,
                  VK_IMAGE_USAGE_STORAGE_BIT = 0x8;
constexpr VkFormat VK_FORMAT_R8G8B8A8_UNORM = 37, VK_FORMAT_G8_B8R8_2PLANE_420_UNORM = 1000156003;
constexpr VkFlags VK_IMAGE_ASPECT_COLOR_BIT = 0x1, VK_IMAGE_ASPECT_PLANE_0_BIT = 0x10, VK_IMAGE_ASPECT_PLANE_1_BIT = 0x20;
constexpr int32_t VK_IMAGE_TILING_OPTIMAL = 0, VK_IMAGE_TILING_LINEAR = 1;
constexpr int32_t VK_IMAGE_TYPE_2D = 1;
constexpr int32_t VK_IMAGE_LAYOUT_UNDEFINED = 0, VK_IMAGE_LAYOUT_GENERAL = 1;
constexpr VkFlags VK_FORMAT_FEATURE_TRANSFER_SRC_BIT = 0x4000, VK_FORMAT_FEATURE_TRANSFER_DST_BIT = 0x8000;
constexpr VkFlags VK_SAMPLE_COUNT_1_BIT = 0x1;
constexpr int32_t VK_SHARING_MODE_EXCLUSIVE = 0;
constexpr VkFlags VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT = 0x1, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT = 0x800, VK_PIPELINE_STAGE_TRANSFER_BIT = 0x1000,
                  VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT = 0x2000, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT = 0x10000;
constexpr VkFlags VK_ACCESS_SHADER_READ_BIT = 0x20, VK_ACCESS_SHADER_WRITE_BIT = 0x40, VK_ACCESS_TRANSFER_READ_BIT = 0x800,
                  VK_ACCESS_TRANSFER_WRITE_BIT = 0x1000, VK_ACCESS_MEMORY_READ_BIT = 0x8000, VK_ACCESS_MEMORY_WRITE_BIT = 0x10000;
constexpr VkFlags VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT = 0x2;
constexpr int32_t VK_COMMAND_BUFFER_LEVEL_PRIMARY = 0;
constexpr VkFlags VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT = 0x1, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT = 0x4;
constexpr int32_t VK_DESCRIPTOR_TYPE_STORAGE_BUFFER = 7;
constexpr VkFlags VK_SHADER_STAGE_COMPUTE_BIT = 0x20;
constexpr int32_t VK_PIPELINE_BIND_POINT_COMPUTE = 1;

constexpr VkFlags VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT = 0x1, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT = 0x2,
                  VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT = 0x4, VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT = 0x200;
constexpr VkFlags VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT = 0x1, VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT = 0x2,
                  VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT = 0x4;
constexpr VkFlags VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT = 0x1, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT = 0x2,
                  VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT = 0x4, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT = 0x10;
constexpr VkFlags VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT = 0x1, VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT = 0x2;

// ---- structures ---------------------------------------------------------

struct VkExtent3D {
  uint32_t width, height, depth;
};
struct VkOffset3D {
  int32_t x, y, z;
};
struct VkApplicationInfo {
  VkStructureType sType;
  const void* pNext;
  const char* pApplicationName;
  uint32_t applicationVersion;
  const char* pEngineName;
  uint32_t engineVersion;
  uint32_t apiVersion;
};
struct VkInstanceCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  const VkApplicationInfo* pApplicationInfo;
  uint32_t enabledLayerCount;
  const char* const* ppEnabledLayerNames;
  uint32_t enabledExtensionCount;
  const char* const* ppEnabledExtensionNames;
};
struct VkExtensionProperties {
  char extensionName[VK_MAX_EXTENSION_NAME_SIZE];
  uint32_t specVersion;
};
// VkPhysicalDeviceLimits (504 bytes) is read only for the fields named here.
struct VkPhysicalDeviceLimitsBlock {
  alignas(8) uint8_t bytes[504];
};
struct VkPhysicalDeviceSparseProperties {
  VkBool32 values[5];
};
struct VkPhysicalDeviceProperties {
  uint32_t apiVersion;
  uint32_t driverVersion;
  uint32_t vendorID;
  uint32_t deviceID;
  int32_t deviceType;
  char deviceName[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  uint8_t pipelineCacheUUID[VK_UUID_SIZE];
  VkPhysicalDeviceLimitsBlock limits;
  VkPhysicalDeviceSparseProperties sparseProperties;
};
static_assert(sizeof(VkPhysicalDeviceProperties) == 824, "VkPhysicalDeviceProperties layout");
static_assert(offsetof(VkPhysicalDeviceProperties, limits) == 296, "VkPhysicalDeviceProperties.limits offset");
constexpr size_t kLimitsMaxComputeWorkGroupCount = 220;            // uint32_t[3]
constexpr size_t kLimitsOptimalBufferCopyRowPitchAlignment = 488;  // VkDeviceSize

struct VkPhysicalDeviceProperties2 {
  VkStructureType sType;
  void* pNext;
  VkPhysicalDeviceProperties properties;
};
struct VkPhysicalDeviceIDProperties {
  VkStructureType sType;
  void* pNext;
  uint8_t deviceUUID[VK_UUID_SIZE];
  uint8_t driverUUID[VK_UUID_SIZE];
  uint8_t deviceLUID[VK_LUID_SIZE];
  uint32_t deviceNodeMask;
  VkBool32 deviceLUIDValid;
};
struct VkConformanceVersion {
  uint8_t major, minor, subminor, patch;
};
struct VkPhysicalDeviceDriverProperties {
  VkStructureType sType;
  void* pNext;
  int32_t driverID;
  char driverName[VK_MAX_DRIVER_NAME_SIZE];
  char driverInfo[VK_MAX_DRIVER_INFO_SIZE];
  VkConformanceVersion conformanceVersion;
};
static_assert(sizeof(VkPhysicalDeviceDriverProperties) == 536, "VkPhysicalDeviceDriverProperties layout");
// VK_EXT_pci_bus_info.
struct VkPhysicalDevicePCIBusInfoPropertiesEXT {
  VkStructureType sType;
  void* pNext;
  uint32_t pciDomain, pciBus, pciDevice, pciFunction;
};
static_assert(sizeof(VkPhysicalDevicePCIBusInfoPropertiesEXT) == 32, "VkPhysicalDevicePCIBusInfoPropertiesEXT layout");
struct VkPhysicalDeviceFeatures {
  VkBool32 values[55];
};
static_assert(sizeof(VkPhysicalDeviceFeatures) == 220, "VkPhysicalDeviceFeatures layout");
struct VkPhysicalDeviceFeatures2 {
  VkStructureType sType;
  void* pNext;
  VkPhysicalDeviceFeatures features;
};
struct VkPhysicalDeviceSamplerYcbcrConversionFeatures {
  VkStructureType sType;
  void* pNext;
  VkBool32 samplerYcbcrConversion;
};
struct VkQueueFamilyProperties {
  VkFlags queueFlags;
  uint32_t queueCount;
  uint32_t timestampValidBits;
  VkExtent3D minImageTransferGranularity;
};
struct VkMemoryType {
  VkFlags propertyFlags;
  uint32_t heapIndex;
};
struct VkMemoryHeap {
  VkDeviceSize size;
  VkFlags flags;
};
struct VkPhysicalDeviceMemoryProperties {
  uint32_t memoryTypeCount;
  VkMemoryType memoryTypes[VK_MAX_MEMORY_TYPES];
  uint32_t memoryHeapCount;
  VkMemoryHeap memoryHeaps[VK_MAX_MEMORY_HEAPS];
};
static_assert(sizeof(VkPhysicalDeviceMemoryProperties) == 520, "VkPhysicalDeviceMemoryProperties layout");
struct VkFormatProperties {
  VkFlags linearTilingFeatures;
  VkFlags optimalTilingFeatures;
  VkFlags bufferFeatures;
};
struct VkExternalMemoryProperties {
  VkFlags externalMemoryFeatures;
  VkFlags exportFromImportedHandleTypes;
  VkFlags compatibleHandleTypes;
};
struct VkPhysicalDeviceExternalBufferInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  VkFlags usage;
  VkFlags handleType;
};
struct VkExternalBufferProperties {
  VkStructureType sType;
  void* pNext;
  VkExternalMemoryProperties externalMemoryProperties;
};
struct VkPhysicalDeviceExternalSemaphoreInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags handleType;
};
struct VkExternalSemaphoreProperties {
  VkStructureType sType;
  void* pNext;
  VkFlags exportFromImportedHandleTypes;
  VkFlags compatibleHandleTypes;
  VkFlags externalSemaphoreFeatures;
};
struct VkPhysicalDeviceImageFormatInfo2 {
  VkStructureType sType;
  const void* pNext;
  VkFormat format;
  int32_t type;
  int32_t tiling;
  VkFlags usage;
  VkFlags flags;
};
struct VkPhysicalDeviceExternalImageFormatInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags handleType;
};
struct VkImageFormatProperties {
  VkExtent3D maxExtent;
  uint32_t maxMipLevels;
  uint32_t maxArrayLayers;
  VkFlags sampleCounts;
  VkDeviceSize maxResourceSize;
};
struct VkImageFormatProperties2 {
  VkStructureType sType;
  void* pNext;
  VkImageFormatProperties imageFormatProperties;
};
struct VkExternalImageFormatProperties {
  VkStructureType sType;
  void* pNext;
  VkExternalMemoryProperties externalMemoryProperties;
};
struct VkDeviceQueueCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  uint32_t queueFamilyIndex;
  uint32_t queueCount;
  const float* pQueuePriorities;
};
struct VkDeviceCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  uint32_t queueCreateInfoCount;
  const VkDeviceQueueCreateInfo* pQueueCreateInfos;
  uint32_t enabledLayerCount;
  const char* const* ppEnabledLayerNames;
  uint32_t enabledExtensionCount;
  const char* const* ppEnabledExtensionNames;
  const VkPhysicalDeviceFeatures* pEnabledFeatures;
};
struct VkBufferCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  VkDeviceSize size;
  VkFlags usage;
  int32_t sharingMode;
  uint32_t queueFamilyIndexCount;
  const uint32_t* pQueueFamilyIndices;
};
struct VkImageCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  int32_t imageType;
  VkFormat format;
  VkExtent3D extent;
  uint32_t mipLevels;
  uint32_t arrayLayers;
  VkFlags samples;
  int32_t tiling;
  VkFlags usage;
  int32_t sharingMode;
  uint32_t queueFamilyIndexCount;
  const uint32_t* pQueueFamilyIndices;
  int32_t initialLayout;
};
struct VkExternalMemoryCreateInfo {  // VkExternalMemoryBufferCreateInfo and VkExternalMemoryImageCreateInfo
  VkStructureType sType;
  const void* pNext;
  VkFlags handleTypes;
};
struct VkExportMemoryAllocateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags handleTypes;
};
struct VkMemoryAllocateInfo {
  VkStructureType sType;
  const void* pNext;
  VkDeviceSize allocationSize;
  uint32_t memoryTypeIndex;
};
struct VkMemoryDedicatedAllocateInfo {
  VkStructureType sType;
  const void* pNext;
  VkImage image;
  VkBuffer buffer;
};
struct VkMemoryRequirements {
  VkDeviceSize size;
  VkDeviceSize alignment;
  uint32_t memoryTypeBits;
};
struct VkMemoryRequirements2 {
  VkStructureType sType;
  void* pNext;
  VkMemoryRequirements memoryRequirements;
};
struct VkMemoryDedicatedRequirements {
  VkStructureType sType;
  void* pNext;
  VkBool32 prefersDedicatedAllocation;
  VkBool32 requiresDedicatedAllocation;
};
struct VkBufferMemoryRequirementsInfo2 {
  VkStructureType sType;
  const void* pNext;
  VkBuffer buffer;
};
struct VkImageMemoryRequirementsInfo2 {
  VkStructureType sType;
  const void* pNext;
  VkImage image;
};
struct VkMemoryGetFdInfoKHR {  // also VkSemaphoreGetFdInfoKHR (a VkSemaphore where memory is)
  VkStructureType sType;
  const void* pNext;
  uint64_t object;
  VkFlags handleType;
};
struct VkGetWin32HandleInfoKHR {  // VkMemoryGetWin32HandleInfoKHR and VkSemaphoreGetWin32HandleInfoKHR
  VkStructureType sType;
  const void* pNext;
  uint64_t object;
  VkFlags handleType;
};
struct VkImageSubresource {
  VkFlags aspectMask;
  uint32_t mipLevel;
  uint32_t arrayLayer;
};
struct VkSubresourceLayout {
  VkDeviceSize offset;
  VkDeviceSize size;
  VkDeviceSize rowPitch;
  VkDeviceSize arrayPitch;
  VkDeviceSize depthPitch;
};
struct VkSemaphoreCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
};
struct VkExportSemaphoreCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags handleTypes;
};
struct VkFenceCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
};
struct VkCommandPoolCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  uint32_t queueFamilyIndex;
};
struct VkCommandBufferAllocateInfo {
  VkStructureType sType;
  const void* pNext;
  VkCommandPool commandPool;
  int32_t level;
  uint32_t commandBufferCount;
};
struct VkCommandBufferBeginInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  const void* pInheritanceInfo;
};
struct VkBufferCopy {
  VkDeviceSize srcOffset;
  VkDeviceSize dstOffset;
  VkDeviceSize size;
};
struct VkImageSubresourceLayers {
  VkFlags aspectMask;
  uint32_t mipLevel;
  uint32_t baseArrayLayer;
  uint32_t layerCount;
};
struct VkBufferImageCopy {
  VkDeviceSize bufferOffset;
  uint32_t bufferRowLength;
  uint32_t bufferImageHeight;
  VkImageSubresourceLayers imageSubresource;
  VkOffset3D imageOffset;
  VkExtent3D imageExtent;
};
struct VkMemoryBarrier {
  VkStructureType sType;
  const void* pNext;
  VkFlags srcAccessMask;
  VkFlags dstAccessMask;
};
struct VkBufferMemoryBarrier {
  VkStructureType sType;
  const void* pNext;
  VkFlags srcAccessMask;
  VkFlags dstAccessMask;
  uint32_t srcQueueFamilyIndex;
  uint32_t dstQueueFamilyIndex;
  VkBuffer buffer;
  VkDeviceSize offset;
  VkDeviceSize size;
};
struct VkImageSubresourceRange {
  VkFlags aspectMask;
  uint32_t baseMipLevel;
  uint32_t levelCount;
  uint32_t baseArrayLayer;
  uint32_t layerCount;
};
struct VkImageMemoryBarrier {
  VkStructureType sType;
  const void* pNext;
  VkFlags srcAccessMask;
  VkFlags dstAccessMask;
  int32_t oldLayout;
  int32_t newLayout;
  uint32_t srcQueueFamilyIndex;
  uint32_t dstQueueFamilyIndex;
  VkImage image;
  VkImageSubresourceRange subresourceRange;
};
struct VkSubmitInfo {
  VkStructureType sType;
  const void* pNext;
  uint32_t waitSemaphoreCount;
  const VkSemaphore* pWaitSemaphores;
  const VkFlags* pWaitDstStageMask;
  uint32_t commandBufferCount;
  const VkCommandBuffer* pCommandBuffers;
  uint32_t signalSemaphoreCount;
  const VkSemaphore* pSignalSemaphores;
};
struct VkShaderModuleCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  size_t codeSize;
  const uint32_t* pCode;
};
struct VkDescriptorSetLayoutBinding {
  uint32_t binding;
  int32_t descriptorType;
  uint32_t descriptorCount;
  VkFlags stageFlags;
  const VkSampler* pImmutableSamplers;
};
struct VkDescriptorSetLayoutCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  uint32_t bindingCount;
  const VkDescriptorSetLayoutBinding* pBindings;
};
struct VkPushConstantRange {
  VkFlags stageFlags;
  uint32_t offset;
  uint32_t size;
};
struct VkPipelineLayoutCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  uint32_t setLayoutCount;
  const VkDescriptorSetLayout* pSetLayouts;
  uint32_t pushConstantRangeCount;
  const VkPushConstantRange* pPushConstantRanges;
};
struct VkPipelineShaderStageCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  VkFlags stage;
  VkShaderModule module;
  const char* pName;
  const void* pSpecializationInfo;
};
struct VkComputePipelineCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  VkPipelineShaderStageCreateInfo stage;
  VkPipelineLayout layout;
  VkPipeline basePipelineHandle;
  int32_t basePipelineIndex;
};
struct VkDescriptorPoolSize {
  int32_t type;
  uint32_t descriptorCount;
};
struct VkDescriptorPoolCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  uint32_t maxSets;
  uint32_t poolSizeCount;
  const VkDescriptorPoolSize* pPoolSizes;
};
struct VkDescriptorSetAllocateInfo {
  VkStructureType sType;
  const void* pNext;
  VkDescriptorPool descriptorPool;
  uint32_t descriptorSetCount;
  const VkDescriptorSetLayout* pSetLayouts;
};
struct VkDescriptorBufferInfo {
  VkBuffer buffer;
  VkDeviceSize offset;
  VkDeviceSize range;
};
struct VkWriteDescriptorSet {
  VkStructureType sType;
  const void* pNext;
  VkDescriptorSet dstSet;
  uint32_t dstBinding;
  uint32_t dstArrayElement;
  uint32_t descriptorCount;
  int32_t descriptorType;
  const void* pImageInfo;
  const VkDescriptorBufferInfo* pBufferInfo;
  const VkBufferView* pTexelBufferView;
};

using PFN_vkVoidFunction = void(OCL_VKAPI*)();
using PFN_vkGetInstanceProcAddr = PFN_vkVoidFunction(OCL_VKAPI*)(VkInstance, const char*);
using PFN_vkGetDeviceProcAddr = PFN_vkVoidFunction(OCL_VKAPI*)(VkDevice, const char*);

// Global entry points (through vkGetInstanceProcAddr(NULL, ...)).
#define OCL_VK_GLOBAL_ENTRY_POINTS(X)                                                                   \
  X(vkEnumerateInstanceVersion, VkResult, (uint32_t*))                                                  \
  X(vkEnumerateInstanceExtensionProperties, VkResult, (const char*, uint32_t*, VkExtensionProperties*)) \
  X(vkCreateInstance, VkResult, (const VkInstanceCreateInfo*, const void*, VkInstance*))

#define OCL_VK_INSTANCE_ENTRY_POINTS(X)                                                                                                            \
  X(vkDestroyInstance, void, (VkInstance, const void*))                                                                                            \
  X(vkEnumeratePhysicalDevices, VkResult, (VkInstance, uint32_t*, VkPhysicalDevice*))                                                              \
  X(vkGetPhysicalDeviceProperties2, void, (VkPhysicalDevice, VkPhysicalDeviceProperties2*))                                                        \
  X(vkGetPhysicalDeviceFeatures2, void, (VkPhysicalDevice, VkPhysicalDeviceFeatures2*))                                                            \
  X(vkGetPhysicalDeviceQueueFamilyProperties, void, (VkPhysicalDevice, uint32_t*, VkQueueFamilyProperties*))                                       \
  X(vkGetPhysicalDeviceMemoryProperties, void, (VkPhysicalDevice, VkPhysicalDeviceMemoryProperties*))                                              \
  X(vkGetPhysicalDeviceFormatProperties, void, (VkPhysicalDevice, VkFormat, VkFormatProperties*))                                                  \
  X(vkGetPhysicalDeviceImageFormatProperties2, VkResult, (VkPhysicalDevice, const VkPhysicalDeviceImageFormatInfo2*, VkImageFormatProperties2*))   \
  X(vkGetPhysicalDeviceExternalBufferProperties, void, (VkPhysicalDevice, const VkPhysicalDeviceExternalBufferInfo*, VkExternalBufferProperties*)) \
  X(vkGetPhysicalDeviceExternalSemaphoreProperties, void,                                                                                          \
    (VkPhysicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo*, VkExternalSemaphoreProperties*))                                              \
  X(vkEnumerateDeviceExtensionProperties, VkResult, (VkPhysicalDevice, const char*, uint32_t*, VkExtensionProperties*))                            \
  X(vkCreateDevice, VkResult, (VkPhysicalDevice, const VkDeviceCreateInfo*, const void*, VkDevice*))                                               \
  X(vkGetDeviceProcAddr, PFN_vkVoidFunction, (VkDevice, const char*))

#define OCL_VK_DEVICE_ENTRY_POINTS(X)                                                                                                        \
  X(vkDestroyDevice, void, (VkDevice, const void*))                                                                                          \
  X(vkGetDeviceQueue, void, (VkDevice, uint32_t, uint32_t, VkQueue*))                                                                        \
  X(vkDeviceWaitIdle, VkResult, (VkDevice))                                                                                                  \
  X(vkCreateBuffer, VkResult, (VkDevice, const VkBufferCreateInfo*, const void*, VkBuffer*))                                                 \
  X(vkDestroyBuffer, void, (VkDevice, VkBuffer, const void*))                                                                                \
  X(vkGetBufferMemoryRequirements2, void, (VkDevice, const VkBufferMemoryRequirementsInfo2*, VkMemoryRequirements2*))                        \
  X(vkCreateImage, VkResult, (VkDevice, const VkImageCreateInfo*, const void*, VkImage*))                                                    \
  X(vkDestroyImage, void, (VkDevice, VkImage, const void*))                                                                                  \
  X(vkGetImageMemoryRequirements2, void, (VkDevice, const VkImageMemoryRequirementsInfo2*, VkMemoryRequirements2*))                          \
  X(vkGetImageSubresourceLayout, void, (VkDevice, VkImage, const VkImageSubresource*, VkSubresourceLayout*))                                 \
  X(vkAllocateMemory, VkResult, (VkDevice, const VkMemoryAllocateInfo*, const void*, VkDeviceMemory*))                                       \
  X(vkFreeMemory, void, (VkDevice, VkDeviceMemory, const void*))                                                                             \
  X(vkBindBufferMemory, VkResult, (VkDevice, VkBuffer, VkDeviceMemory, VkDeviceSize))                                                        \
  X(vkBindImageMemory, VkResult, (VkDevice, VkImage, VkDeviceMemory, VkDeviceSize))                                                          \
  X(vkMapMemory, VkResult, (VkDevice, VkDeviceMemory, VkDeviceSize, VkDeviceSize, VkFlags, void**))                                          \
  X(vkUnmapMemory, void, (VkDevice, VkDeviceMemory))                                                                                         \
  X(vkCreateSemaphore, VkResult, (VkDevice, const VkSemaphoreCreateInfo*, const void*, VkSemaphore*))                                        \
  X(vkDestroySemaphore, void, (VkDevice, VkSemaphore, const void*))                                                                          \
  X(vkCreateFence, VkResult, (VkDevice, const VkFenceCreateInfo*, const void*, VkFence*))                                                    \
  X(vkDestroyFence, void, (VkDevice, VkFence, const void*))                                                                                  \
  X(vkResetFences, VkResult, (VkDevice, uint32_t, const VkFence*))                                                                           \
  X(vkWaitForFences, VkResult, (VkDevice, uint32_t, const VkFence*, VkBool32, uint64_t))                                                     \
  X(vkCreateCommandPool, VkResult, (VkDevice, const VkCommandPoolCreateInfo*, const void*, VkCommandPool*))                                  \
  X(vkDestroyCommandPool, void, (VkDevice, VkCommandPool, const void*))                                                                      \
  X(vkAllocateCommandBuffers, VkResult, (VkDevice, const VkCommandBufferAllocateInfo*, VkCommandBuffer*))                                    \
  X(vkFreeCommandBuffers, void, (VkDevice, VkCommandPool, uint32_t, const VkCommandBuffer*))                                                 \
  X(vkBeginCommandBuffer, VkResult, (VkCommandBuffer, const VkCommandBufferBeginInfo*))                                                      \
  X(vkEndCommandBuffer, VkResult, (VkCommandBuffer))                                                                                         \
  X(vkCmdPipelineBarrier, void,                                                                                                              \
    (VkCommandBuffer, VkFlags, VkFlags, VkFlags, uint32_t, const VkMemoryBarrier*, uint32_t, const VkBufferMemoryBarrier*, uint32_t,         \
     const VkImageMemoryBarrier*))                                                                                                           \
  X(vkCmdCopyBuffer, void, (VkCommandBuffer, VkBuffer, VkBuffer, uint32_t, const VkBufferCopy*))                                             \
  X(vkCmdFillBuffer, void, (VkCommandBuffer, VkBuffer, VkDeviceSize, VkDeviceSize, uint32_t))                                                \
  X(vkCmdCopyBufferToImage, void, (VkCommandBuffer, VkBuffer, VkImage, int32_t, uint32_t, const VkBufferImageCopy*))                         \
  X(vkCmdCopyImageToBuffer, void, (VkCommandBuffer, VkImage, int32_t, VkBuffer, uint32_t, const VkBufferImageCopy*))                         \
  X(vkCmdBindPipeline, void, (VkCommandBuffer, int32_t, VkPipeline))                                                                         \
  X(vkCmdBindDescriptorSets, void,                                                                                                           \
    (VkCommandBuffer, int32_t, VkPipelineLayout, uint32_t, uint32_t, const VkDescriptorSet*, uint32_t, const uint32_t*))                     \
  X(vkCmdPushConstants, void, (VkCommandBuffer, VkPipelineLayout, VkFlags, uint32_t, uint32_t, const void*))                                 \
  X(vkCmdDispatch, void, (VkCommandBuffer, uint32_t, uint32_t, uint32_t))                                                                    \
  X(vkQueueSubmit, VkResult, (VkQueue, uint32_t, const VkSubmitInfo*, VkFence))                                                              \
  X(vkCreateShaderModule, VkResult, (VkDevice, const VkShaderModuleCreateInfo*, const void*, VkShaderModule*))                               \
  X(vkDestroyShaderModule, void, (VkDevice, VkShaderModule, const void*))                                                                    \
  X(vkCreateDescriptorSetLayout, VkResult, (VkDevice, const VkDescriptorSetLayoutCreateInfo*, const void*, VkDescriptorSetLayout*))          \
  X(vkDestroyDescriptorSetLayout, void, (VkDevice, VkDescriptorSetLayout, const void*))                                                      \
  X(vkCreatePipelineLayout, VkResult, (VkDevice, const VkPipelineLayoutCreateInfo*, const void*, VkPipelineLayout*))                         \
  X(vkDestroyPipelineLayout, void, (VkDevice, VkPipelineLayout, const void*))                                                                \
  X(vkCreateComputePipelines, VkResult, (VkDevice, VkPipelineCache, uint32_t, const VkComputePipelineCreateInfo*, const void*, VkPipeline*)) \
  X(vkDestroyPipeline, void, (VkDevice, VkPipeline, const void*))                                                                            \
  X(vkCreateDescriptorPool, VkResult, (VkDevice, const VkDescriptorPoolCreateInfo*, const void*, VkDescriptorPool*))                         \
  X(vkDestroyDescriptorPool, void, (VkDevice, VkDescriptorPool, const void*))                                                                \
  X(vkAllocateDescriptorSets, VkResult, (VkDevice, const VkDescriptorSetAllocateInfo*, VkDescriptorSet*))                                    \
  X(vkUpdateDescriptorSets, void, (VkDevice, uint32_t, const VkWriteDescriptorSet*, uint32_t, const void*))

// Extension entry points of the device (null where the extension is not enabled).
#define OCL_VK_DEVICE_EXTENSION_ENTRY_POINTS(X)                                              \
  X(vkGetMemoryFdKHR, VkResult, (VkDevice, const VkMemoryGetFdInfoKHR*, int*))               \
  X(vkGetSemaphoreFdKHR, VkResult, (VkDevice, const VkMemoryGetFdInfoKHR*, int*))            \
  X(vkGetMemoryWin32HandleKHR, VkResult, (VkDevice, const VkGetWin32HandleInfoKHR*, void**)) \
  X(vkGetSemaphoreWin32HandleKHR, VkResult, (VkDevice, const VkGetWin32HandleInfoKHR*, void**))

}  // namespace vk
}  // namespace ocl
