// Instances and physical devices: what a device can share (UUIDs, LUID, node
// mask, external memory and semaphore handle types), and device creation.
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "vulkan/module.h"

namespace ocl {
namespace vk {

const napi_type_tag NativeVkInstance::kTypeTag = {0x3c5a9e1d7b204f68ULL, 0x8e2d41f6a9c07b35ULL};

InstanceState::~InstanceState() {
  if (instance && fn.vkDestroyInstance && !ProcessEnding()) fn.vkDestroyInstance(instance, nullptr);
}

namespace {

// The Vulkan loader unloads the drivers (ICDs) when the process's last
// instance is destroyed. NVIDIA's leaves thread-exit handlers behind in
// libraries that stay loaded (glvnd's libEGL), which then run into the
// unloaded driver when a thread that used Vulkan ends: a worker thread whose
// instance was the last one segfaulted as it exited (four H200s,
// bench/multi-gpu-pipeline.mjs, test/gpu/vulkan-threads.test.mjs). One
// instance that is never destroyed keeps them loaded for the life of the
// process. OPENCL_INTEROP_VULKAN_UNPINNED=1 leaves it out, to show the crash.
void KeepDriversLoaded(const GlobalApi& api, const VkApplicationInfo& app) {
  static std::once_flag once;
  std::call_once(once, [&] {
    const char* unpinned = std::getenv("OPENCL_INTEROP_VULKAN_UNPINNED");
    if (unpinned && std::strcmp(unpinned, "1") == 0) return;
    VkInstanceCreateInfo create{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app, 0, nullptr, 0, nullptr};
    VkInstance pin = nullptr;
    api.vkCreateInstance(&create, nullptr, &pin);  // never destroyed; if it fails, nothing is pinned
  });
}

std::vector<std::string> Strings(const Napi::Value& value, const char* what) {
  if (!value.IsArray()) throw Napi::TypeError::New(value.Env(), std::string(what) + " must be an array of strings");
  Napi::Array array = value.As<Napi::Array>();
  std::vector<std::string> out;
  for (uint32_t i = 0; i < array.Length(); ++i) out.push_back(array.Get(i).ToString());
  return out;
}

std::vector<const char*> Pointers(const std::vector<std::string>& strings) {
  std::vector<const char*> out;
  for (const std::string& s : strings) out.push_back(s.c_str());
  return out;
}

// vkCreateInstance(apiVersion, extensions: string[], applicationName) -> NativeVkInstance
Napi::Value CreateInstance(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const GlobalApi& api = Global(env);
  uint32_t apiVersion = uint32_t(ToU64(info[0], "apiVersion"));
  std::vector<std::string> extensions = Strings(info[1], "extensions");
  std::string name = info[2].IsString() ? info[2].As<Napi::String>().Utf8Value() : std::string("opencl-interop");
  std::vector<const char*> names = Pointers(extensions);
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, name.c_str(), 1, "opencl-interop", 1, apiVersion};
  VkInstanceCreateInfo create{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app, 0, nullptr, uint32_t(names.size()), names.data()};
  VkInstance instance = nullptr;
  VK_CHECK(env, api, vkCreateInstance, &create, nullptr, &instance);
  KeepDriversLoaded(api, app);
  auto state = std::make_shared<InstanceState>();
  state->instance = instance;
  state->apiVersion = apiVersion;
#define OCL_VK_RESOLVE(name, ret, params) state->fn.name = reinterpret_cast<decltype(state->fn.name)>(api.vkGetInstanceProcAddr(instance, #name));
  OCL_VK_INSTANCE_ENTRY_POINTS(OCL_VK_RESOLVE)
#undef OCL_VK_RESOLVE
#define OCL_VK_REQUIRE(name, ret, params) \
  if (!state->fn.name) ThrowVkError(env, VK_ERROR_INCOMPATIBLE_DRIVER, "vkGetInstanceProcAddr", "the instance has no " #name);
  OCL_VK_INSTANCE_ENTRY_POINTS(OCL_VK_REQUIRE)
#undef OCL_VK_REQUIRE
  return NativeVkInstance::Wrap(env, std::move(state));
}

std::vector<VkPhysicalDevice> PhysicalDeviceList(Napi::Env env, const InstanceState& state) {
  uint32_t count = 0;
  VK_CHECK(env, state.fn, vkEnumeratePhysicalDevices, state.instance, &count, nullptr);
  std::vector<VkPhysicalDevice> list(count);
  VkOutcome listed = VK_CALL(state.fn, vkEnumeratePhysicalDevices, state.instance, &count, list.data());
  if (listed.result != VK_INCOMPLETE) CheckVk(env, listed);
  list.resize(count);
  return list;
}

std::vector<std::string> DeviceExtensions(Napi::Env env, const InstanceState& state, VkPhysicalDevice physical) {
  uint32_t count = 0;
  VK_CHECK(env, state.fn, vkEnumerateDeviceExtensionProperties, physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> list(count);
  VkOutcome listed = VK_CALL(state.fn, vkEnumerateDeviceExtensionProperties, physical, nullptr, &count, list.data());
  if (listed.result != VK_INCOMPLETE) CheckVk(env, listed);
  std::vector<std::string> out;
  for (uint32_t i = 0; i < count && i < list.size(); ++i) out.emplace_back(list[i].extensionName);
  return out;
}

Napi::Uint8Array Bytes(Napi::Env env, const uint8_t* data, size_t n) {
  Napi::Uint8Array array = Napi::Uint8Array::New(env, n);
  std::memcpy(array.Data(), data, n);
  return array;
}

}  // namespace

// physicalDevices() -> [{ name, type, apiVersion, driverVersion, vendorId, deviceId, deviceUUID, driverUUID,
//   deviceLUID | null, nodeMask, pciBus | null, driverName, driverInfo, extensions, queueFamilies: [{ flags, count }],
//   memoryHandleTypes: [[type, features, compatible]], semaphoreHandleTypes: [[type, features, compatible]], ycbcr }]
Napi::Value NativeVkInstance::PhysicalDevices(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const InstanceState& state = *Live(env);
  std::vector<VkPhysicalDevice> list = PhysicalDeviceList(env, state);
  Napi::Array result = Napi::Array::New(env, list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    VkPhysicalDevice physical = list[i];
    std::vector<std::string> extensions = DeviceExtensions(env, state, physical);
    auto has = [&](const char* name) {
      for (auto& e : extensions)
        if (e == name) return true;
      return false;
    };
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    VkPhysicalDeviceIDProperties id{};
    id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    VkPhysicalDeviceProperties2 props{};
    props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    props.pNext = &id;
    bool hasDriver = has("VK_KHR_driver_properties");
    if (hasDriver) id.pNext = &driver;
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci{};
    pci.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT;
    bool hasPci = has("VK_EXT_pci_bus_info");
    if (hasPci) {
      pci.pNext = props.pNext;
      props.pNext = &pci;
    }
    state.fn.vkGetPhysicalDeviceProperties2(physical, &props);
    // The device's own API version bounds what may be asked of it (driver properties: 1.2 or the extension).
    Napi::Object o = Napi::Object::New(env);
    const VkPhysicalDeviceProperties& p = props.properties;
    o.Set("name", std::string(p.deviceName, strnlen(p.deviceName, sizeof(p.deviceName))));
    o.Set("type", p.deviceType);
    o.Set("apiVersion", p.apiVersion);
    o.Set("driverVersion", p.driverVersion);
    o.Set("vendorId", p.vendorID);
    o.Set("deviceId", p.deviceID);
    o.Set("deviceUUID", Bytes(env, id.deviceUUID, VK_UUID_SIZE));
    o.Set("driverUUID", Bytes(env, id.driverUUID, VK_UUID_SIZE));
    o.Set("deviceLUID", id.deviceLUIDValid ? Napi::Value(Bytes(env, id.deviceLUID, VK_LUID_SIZE)) : env.Null());
    o.Set("nodeMask", id.deviceNodeMask);
    if (hasPci) {
      Napi::Object bus = Napi::Object::New(env);
      bus.Set("domain", pci.pciDomain);
      bus.Set("bus", pci.pciBus);
      bus.Set("device", pci.pciDevice);
      bus.Set("function", pci.pciFunction);
      o.Set("pciBus", bus);
    } else {
      o.Set("pciBus", env.Null());
    }
    o.Set("driverName", hasDriver
                            ? Napi::Value(Napi::String::New(env, std::string(driver.driverName, strnlen(driver.driverName, VK_MAX_DRIVER_NAME_SIZE))))
                            : env.Null());
    o.Set("driverInfo", hasDriver
                            ? Napi::Value(Napi::String::New(env, std::string(driver.driverInfo, strnlen(driver.driverInfo, VK_MAX_DRIVER_INFO_SIZE))))
                            : env.Null());
    Napi::Array ext = Napi::Array::New(env, extensions.size());
    for (size_t e = 0; e < extensions.size(); ++e) ext.Set(uint32_t(e), extensions[e]);
    o.Set("extensions", ext);
    uint32_t families = 0;
    state.fn.vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
    std::vector<VkQueueFamilyProperties> familyList(families);
    state.fn.vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, familyList.data());
    Napi::Array fam = Napi::Array::New(env, families);
    for (uint32_t f = 0; f < families; ++f) {
      Napi::Object entry = Napi::Object::New(env);
      entry.Set("flags", familyList[f].queueFlags);
      entry.Set("count", familyList[f].queueCount);
      fam.Set(f, entry);
    }
    o.Set("queueFamilies", fam);
    // What a transfer + storage buffer can do with each memory handle type.
    const VkFlags memoryTypes[] = {VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT,
                                   VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT, VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT};
    Napi::Array mem = Napi::Array::New(env);
    for (VkFlags type : memoryTypes) {
      VkPhysicalDeviceExternalBufferInfo query{
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO, nullptr, 0,
          VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, type};
      VkExternalBufferProperties answer{};
      answer.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES;
      state.fn.vkGetPhysicalDeviceExternalBufferProperties(physical, &query, &answer);
      Napi::Array entry = Napi::Array::New(env, 3);
      entry.Set(0u, type);
      entry.Set(1u, answer.externalMemoryProperties.externalMemoryFeatures);
      entry.Set(2u, answer.externalMemoryProperties.compatibleHandleTypes);
      mem.Set(mem.Length(), entry);
    }
    o.Set("memoryHandleTypes", mem);
    const VkFlags semaphoreTypes[] = {VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_BIT,
                                      VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT_BIT, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT};
    Napi::Array sem = Napi::Array::New(env);
    for (VkFlags type : semaphoreTypes) {
      VkPhysicalDeviceExternalSemaphoreInfo query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO, nullptr, type};
      VkExternalSemaphoreProperties answer{};
      answer.sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES;
      state.fn.vkGetPhysicalDeviceExternalSemaphoreProperties(physical, &query, &answer);
      Napi::Array entry = Napi::Array::New(env, 3);
      entry.Set(0u, type);
      entry.Set(1u, answer.externalSemaphoreFeatures);
      entry.Set(2u, answer.compatibleHandleTypes);
      sem.Set(sem.Length(), entry);
    }
    o.Set("semaphoreHandleTypes", sem);
    VkPhysicalDeviceSamplerYcbcrConversionFeatures ycbcr{};
    ycbcr.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &ycbcr;
    state.fn.vkGetPhysicalDeviceFeatures2(physical, &features);
    o.Set("ycbcr", ycbcr.samplerYcbcrConversion != 0);
    result.Set(uint32_t(i), o);
  }
  return result;
}

// createDevice(index, queueFamily, extensions: string[], ycbcr: boolean, memoryHandleTypes, semaphoreHandleTypes) -> NativeVkDevice
// A device vkCreateDevice made, held: its entry points (every required one present), memory properties, the queue
// of `family` and a command pool on it, and the thread that watches its submissions.
DeviceRef AdoptDevice(Napi::Env env, const InstanceRef& instance, VkPhysicalDevice physical, VkDevice device, uint32_t family,
                      VkFlags memoryHandleTypes, VkFlags semaphoreHandleTypes) {
  auto state = std::make_shared<DeviceState>();
  state->instance = instance;
  state->physical = physical;
  state->device = device;
  state->family = family;
#define OCL_VK_RESOLVE(name, ret, params) \
  state->fn.name = reinterpret_cast<decltype(state->fn.name)>(instance->fn.vkGetDeviceProcAddr(device, #name));
  OCL_VK_DEVICE_ENTRY_POINTS(OCL_VK_RESOLVE)
  OCL_VK_DEVICE_EXTENSION_ENTRY_POINTS(OCL_VK_RESOLVE)
#undef OCL_VK_RESOLVE
#define OCL_VK_REQUIRE(name, ret, params) \
  if (!state->fn.name) ThrowVkError(env, VK_ERROR_INCOMPATIBLE_DRIVER, "vkGetDeviceProcAddr", "the device has no " #name);
  OCL_VK_DEVICE_ENTRY_POINTS(OCL_VK_REQUIRE)
#undef OCL_VK_REQUIRE
  state->memoryHandleTypes = memoryHandleTypes;
  state->semaphoreHandleTypes = semaphoreHandleTypes;
  instance->fn.vkGetPhysicalDeviceMemoryProperties(physical, &state->memory);
  state->fn.vkGetDeviceQueue(device, family, 0, &state->queue);
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, family};
  VK_CHECK(env, state->fn, vkCreateCommandPool, device, &pool, nullptr, &state->pool);
  state->Start(env);
  return state;
}

Napi::Value NativeVkInstance::CreateDevice(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const InstanceRef& instance = Live(env);
  uint32_t index = uint32_t(ToU64(info[0], "index"));
  uint32_t family = uint32_t(ToU64(info[1], "queueFamily"));
  std::vector<std::string> extensions = Strings(info[2], "extensions");
  bool ycbcr = info[3].ToBoolean();
  std::vector<VkPhysicalDevice> list = PhysicalDeviceList(env, *instance);
  if (index >= list.size()) throw Napi::RangeError::New(env, "no physical device " + std::to_string(index));
  VkPhysicalDevice physical = list[index];
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, family, 1, &priority};
  std::vector<const char*> names = Pointers(extensions);
  VkPhysicalDeviceSamplerYcbcrConversionFeatures ycbcrFeature{};
  ycbcrFeature.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES;
  ycbcrFeature.samplerYcbcrConversion = 1;
  VkDeviceCreateInfo create{
      VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, ycbcr ? &ycbcrFeature : nullptr, 0, 1, &queue, 0, nullptr, uint32_t(names.size()), names.data(), nullptr};
  VkDevice device = nullptr;
  VK_CHECK(env, instance->fn, vkCreateDevice, physical, &create, nullptr, &device);
  DeviceRef state = AdoptDevice(env, instance, physical, device, family, VkFlags(ToU64(info[4], "memoryHandleTypes")),
                                VkFlags(ToU64(info[5], "semaphoreHandleTypes")));
  return NativeVkDevice::Wrap(env, std::move(state));
}

void NativeVkInstance::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports,
           {InstanceMethod("physicalDevices", &NativeVkInstance::PhysicalDevices), InstanceMethod("createDevice", &NativeVkInstance::CreateDevice)});
  exports.Set("vkCreateInstance", Napi::Function::New(env, CreateInstance, "vkCreateInstance"));
}

void InitInstance(Napi::Env env, Napi::Object exports) { NativeVkInstance::Init(env, exports); }

}  // namespace vk
}  // namespace ocl
