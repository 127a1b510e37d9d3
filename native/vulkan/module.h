// What the Vulkan module's files share: the loaded library and entry points,
// the states behind each wrapped object, and errors. Thin: the native side
// calls Vulkan and converts arguments; lib/vulkan/ validates and decides.
//
// Lifetimes: every object is a shared state; a child's state holds its
// parent's (buffer -> device -> instance), recorded commands hold what they
// use, and a submission holds its commands and semaphores until its fence
// signals. Every Vulkan object is destroyed on the JavaScript thread that made
// it, when the last holder lets go.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "environment.h"
#include "errors.h"
#include "loader.h"
#include "objects.h"
#include "vulkan/vk_decls.h"

namespace ocl {
namespace vk {

struct GlobalApi {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define OCL_VK_DECLARE(name, ret, params) ret(OCL_VKAPI* name) params = nullptr;
  OCL_VK_GLOBAL_ENTRY_POINTS(OCL_VK_DECLARE)
};
struct InstanceApi {
  OCL_VK_INSTANCE_ENTRY_POINTS(OCL_VK_DECLARE)
};
struct DeviceApi {
  OCL_VK_DEVICE_ENTRY_POINTS(OCL_VK_DECLARE)
  OCL_VK_DEVICE_EXTENSION_ENTRY_POINTS(OCL_VK_DECLARE)
#undef OCL_VK_DECLARE
};

// The loaded loader, or a JS error when none is loaded.
const GlobalApi& Global(Napi::Env env);

// Throws the VulkanError of lib/vulkan/errors.ts for (result, call, detail)
// (that module registers the class for native code as it loads).
[[noreturn]] void ThrowVkError(Napi::Env env, VkResult result, const char* call, const std::string& detail = "");

// A call's result with the call's name, for the errors of a call whose result
// is examined before it is thrown (VK_INCOMPLETE, cleanup first).
struct VkOutcome {
  VkResult result;
  const char* call;
};
[[noreturn]] inline void ThrowVkError(Napi::Env env, const VkOutcome& outcome) { ThrowVkError(env, outcome.result, outcome.call); }
inline void CheckVk(Napi::Env env, const VkOutcome& outcome) {
  if (outcome.result < 0) ThrowVkError(env, outcome);
}

// Each Vulkan call's name written once, at its call site (as OCL_CHECK does for OpenCL):
// VK_CALL(device.fn, vkQueueSubmit, ...) -> VkOutcome{result, "vkQueueSubmit"};
// VK_CHECK(env, device.fn, vkCreateFence, ...) throws a VulkanError naming the call on a negative VkResult.
#define VK_CALL(api, name, ...) (::ocl::vk::VkOutcome{(api).name(__VA_ARGS__), #name})
#define VK_CHECK(env, api, name, ...) ::ocl::vk::CheckVk(env, VK_CALL(api, name, __VA_ARGS__))
// An extension entry point the device was made without: a VulkanError naming it and why.
#define VK_REQUIRE(env, api, name, why) ((api).name ? (void)0 : ::ocl::vk::ThrowVkError(env, VK_ERROR_EXTENSION_NOT_PRESENT, #name, why))

struct InstanceState {
  VkInstance instance = nullptr;
  InstanceApi fn;
  uint32_t apiVersion = 0;
  ~InstanceState();
};
using InstanceRef = std::shared_ptr<InstanceState>;

class FenceWaiter;
struct DeviceState;

// Work the waiter thread watches: settled on the JavaScript thread.
struct Submission {
  VkFence fence = 0;
  std::optional<Napi::Promise::Deferred> deferred;  // none: an internal submission nobody awaits
  std::vector<std::shared_ptr<void>> holds;         // commands, semaphores, staging
  // Optional: the value to resolve with (read-backs), run on the JS thread.
  std::function<Napi::Value(Napi::Env)> result;
  Submission(Napi::Env env, bool promise) {
    if (promise) deferred.emplace(Napi::Promise::Deferred::New(env));
  }
};

struct DeviceState : std::enable_shared_from_this<DeviceState> {
  InstanceRef instance;
  VkPhysicalDevice physical = nullptr;
  VkDevice device = nullptr;
  VkQueue queue = nullptr;
  uint32_t family = 0;
  DeviceApi fn;
  VkPhysicalDeviceMemoryProperties memory{};
  VkFlags memoryHandleTypes = 0;  // what the enabled extensions can export
  VkFlags semaphoreHandleTypes = 0;
  VkCommandPool pool = 0;
  std::vector<VkFence> freeFences;
  // The shipped compute shaders: one layout (a storage buffer + push constants), pipelines made on first use.
  VkDescriptorSetLayout setLayout = 0;
  VkPipelineLayout pipelineLayout = 0;
  std::unordered_map<std::string, VkPipeline> pipelines;

  napi_env env = nullptr;
  std::unique_ptr<FenceWaiter> waiter;
  std::unordered_map<uint64_t, std::unique_ptr<Submission>> pending;
  uint64_t nextSubmission = 1;
  // The environment went away with work in flight: Vulkan objects are left to the process's end.
  bool abandoned = false;
  // ... as they are once the process is ending (ProcessEnding, loader.h).
  bool LeftToProcessEnd() const { return abandoned || ProcessEnding(); }
  bool closed = false;

  DeviceState();
  ~DeviceState();
  // Starts the waiter thread (and its ThreadSafeFunction): once, after creation.
  void Start(Napi::Env env);
  // Submits and returns the promise of its completion. The submission holds what it names.
  Napi::Value Submit(Napi::Env env, const std::vector<VkCommandBuffer>& buffers, const std::vector<VkSemaphore>& wait,
                     const std::vector<VkSemaphore>& signal, std::unique_ptr<Submission> submission,
                     VkFlags waitStage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  // JS thread: the waiter saw a fence signal (or its wait fail: `waited` names the call).
  void Complete(Napi::Env env, uint64_t id, const VkOutcome& waited);
  // JS thread: the environment is going away.
  void Close();
  VkFence TakeFence(Napi::Env env);
  int32_t FindMemoryType(uint32_t typeBits, VkFlags required, VkFlags preferred) const;
  // A one-time command buffer from the pool (begun).
  VkCommandBuffer BeginOneTime(Napi::Env env);
};
using DeviceRef = std::shared_ptr<DeviceState>;
// Holds a device vkCreateDevice made (native/vulkan/instance.cc): entry points, memory properties, the queue of
// `family` with a command pool, and its submission watcher.
DeviceRef AdoptDevice(Napi::Env env, const InstanceRef& instance, VkPhysicalDevice physical, VkDevice device, uint32_t family,
                      VkFlags memoryHandleTypes, VkFlags semaphoreHandleTypes);

// A buffer or image with its own memory (dedicated or not) that may be exported.
struct ResourceState {
  DeviceRef device;
  VkDeviceMemory memory = 0;
  VkDeviceSize allocationSize = 0;
  VkFlags exportTypes = 0;
  bool dedicated = false;
  uint32_t memoryType = 0;
  virtual ~ResourceState();
};
struct BufferState : ResourceState {
  VkBuffer buffer = 0;
  VkDeviceSize size = 0;
  ~BufferState() override;
};
struct PlaneLayout {
  VkFlags aspect = 0;
  uint32_t width = 0, height = 0, texelBytes = 0;
  VkSubresourceLayout layout{};  // linear tiling only
};
struct ImageState : ResourceState {
  VkImage image = 0;
  VkFormat format = 0;
  uint32_t width = 0, height = 0;
  bool linear = false;
  std::vector<PlaneLayout> planes;
  ~ImageState() override;
};
struct SemaphoreState {
  DeviceRef device;
  VkSemaphore semaphore = 0;
  VkFlags exportTypes = 0;
  ~SemaphoreState();
};
struct CommandsState {
  DeviceRef device;
  VkCommandBuffer buffer = nullptr;
  VkDescriptorPool descriptors = 0;
  VkFlags stages = 0;                        // the pipeline stages its operations run at
  std::vector<std::shared_ptr<void>> holds;  // what the commands use
  ~CommandsState();
};

// A staging buffer in host-visible, coherent memory, mapped for its lifetime.
struct StagingState {
  DeviceRef device;
  VkBuffer buffer = 0;
  VkDeviceMemory memory = 0;
  void* mapped = nullptr;
  VkCommandBuffer commands = nullptr;
  ~StagingState();
};
std::shared_ptr<StagingState> MakeStaging(Napi::Env env, const DeviceRef& device, VkDeviceSize size);

// Records a full memory barrier (everything before, everything after).
void FullBarrier(const DeviceApi& fn, VkCommandBuffer cb);

// One wrapped object of the module: holds its state until release() or garbage collection.
template <typename Derived, typename State>
class Holder : public Napi::ObjectWrap<Derived> {
 public:
  explicit Holder(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Derived>(info) {
    info.This().As<Napi::Object>().TypeTag(&Derived::kTypeTag);
    if (info[0].IsExternal()) state_ = *info[0].As<Napi::External<std::shared_ptr<State>>>().Data();
  }
  static Napi::Object Wrap(Napi::Env env, std::shared_ptr<State> state) {
    auto& ctor = AddonData::Get(env).constructors.at(&Derived::kTypeTag);
    return ctor.New({Napi::External<std::shared_ptr<State>>::New(env, &state)});
  }
  // The live state of a value that must be this class; throws TypeError or a released error.
  static const std::shared_ptr<State>& From(const Napi::Value& value, const char* what) {
    Napi::Env env = value.Env();
    if (!value.IsObject() || !value.As<Napi::Object>().CheckTypeTag(&Derived::kTypeTag))
      throw Napi::TypeError::New(env, std::string(what) + " must be a " + Derived::kName);
    return Derived::Unwrap(value.As<Napi::Object>())->Live(env);
  }
  const std::shared_ptr<State>& Live(Napi::Env env) const {
    if (!state_) ThrowReleased(env, Derived::kName);
    return state_;
  }

 protected:
  static void Register(Napi::Env env, Napi::Object exports, std::vector<Napi::ClassPropertyDescriptor<Derived>> members) {
    members.push_back(Napi::ObjectWrap<Derived>::InstanceMethod("release", &Holder::ReleaseMethod));
    Napi::Function ctor = Napi::ObjectWrap<Derived>::DefineClass(env, Derived::kName, members);
    AddonData::Get(env).constructors[&Derived::kTypeTag] = Napi::Persistent(ctor);
    exports.Set(Derived::kName, ctor);
  }
  std::shared_ptr<State> state_;

 private:
  Napi::Value ReleaseMethod(const Napi::CallbackInfo& info) {
    state_.reset();
    return info.Env().Undefined();
  }
};

class NativeVkInstance : public Holder<NativeVkInstance, InstanceState> {
 public:
  using Holder::Holder;
  static constexpr const char* kName = "NativeVkInstance";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value PhysicalDevices(const Napi::CallbackInfo& info);
  Napi::Value CreateDevice(const Napi::CallbackInfo& info);
};

class NativeVkDevice : public Holder<NativeVkDevice, DeviceState> {
 public:
  using Holder::Holder;
  static constexpr const char* kName = "NativeVkDevice";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value CreateBuffer(const Napi::CallbackInfo& info);
  Napi::Value CreateImage(const Napi::CallbackInfo& info);
  Napi::Value MakeSemaphore(const Napi::CallbackInfo& info);
  Napi::Value Record(const Napi::CallbackInfo& info);
  Napi::Value SubmitMethod(const Napi::CallbackInfo& info);
  Napi::Value Pending(const Napi::CallbackInfo& info);
  Napi::Value ImageSupport(const Napi::CallbackInfo& info);
};

class NativeVkBuffer : public Holder<NativeVkBuffer, BufferState> {
 public:
  using Holder::Holder;
  static constexpr const char* kName = "NativeVkBuffer";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value Export(const Napi::CallbackInfo& info);
  Napi::Value Write(const Napi::CallbackInfo& info);
  Napi::Value Read(const Napi::CallbackInfo& info);
};

class NativeVkImage : public Holder<NativeVkImage, ImageState> {
 public:
  using Holder::Holder;
  static constexpr const char* kName = "NativeVkImage";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value Export(const Napi::CallbackInfo& info);
  Napi::Value Write(const Napi::CallbackInfo& info);
  Napi::Value Read(const Napi::CallbackInfo& info);
};

class NativeVkSemaphore : public Holder<NativeVkSemaphore, SemaphoreState> {
 public:
  using Holder::Holder;
  static constexpr const char* kName = "NativeVkSemaphore";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value Export(const Napi::CallbackInfo& info);
};

class NativeVkCommands : public Holder<NativeVkCommands, CommandsState> {
 public:
  using Holder::Holder;
  static constexpr const char* kName = "NativeVkCommands";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);
};

// Exports `memory` as a handle of one type: an fd (number) or a HANDLE (bigint).
Napi::Value ExportMemory(Napi::Env env, const ResourceState& resource, VkFlags handleType);
// The SPIR-V of a shipped shader, by name (set by lib/vulkan/shaders.ts through vkSetShaders).
const std::vector<uint32_t>* ShaderCode(const std::string& name);
// The compute pipeline of a shipped shader on a device (made on first use).
VkPipeline ShaderPipeline(Napi::Env env, DeviceState& device, const std::string& name);

void InitLoader(Napi::Env env, Napi::Object exports);
void InitInstance(Napi::Env env, Napi::Object exports);
void InitDevice(Napi::Env env, Napi::Object exports);
void InitMemory(Napi::Env env, Napi::Object exports);
void InitSemaphore(Napi::Env env, Napi::Object exports);
void InitCommands(Napi::Env env, Napi::Object exports);

}  // namespace vk
}  // namespace ocl
