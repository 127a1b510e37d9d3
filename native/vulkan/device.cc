// Devices, their queue and submission: one vkQueueSubmit per submit, a fence
// from the device's pool, and a waiter thread that watches fences and settles
// the submission's promise on the JavaScript thread (a ThreadSafeFunction),
// so that awaiting never blocks JavaScript.
#include "vulkan/fence_waiter.h"
#include "vulkan/module.h"

namespace ocl {
namespace vk {

const napi_type_tag NativeVkDevice::kTypeTag = {0x71b9c4e2d05a4f83ULL, 0xa4e09d3b6c2f1857ULL};

namespace {
void CloseHook(void* device) { static_cast<DeviceState*>(device)->Close(); }
}  // namespace

void DeviceState::Start(Napi::Env napiEnv) {
  env = napiEnv;
  waiter = FenceWaiter::For(napiEnv, "opencl-interop vulkan fences", "ocl-vk-fences", weak_from_this(), device, fn.vkWaitForFences);
  napi_add_env_cleanup_hook(env, CloseHook, this);
}

void DeviceState::Close() {
  if (closed) return;
  closed = true;
  if (waiter) waiter->Stop();
  if (pending.empty()) return;
  // The environment is going away with work in flight: give it a moment (none when the process is ending), then
  // leave the device to the process's end.
  std::vector<VkFence> fences;
  for (auto& [id, submission] : pending) fences.push_back(submission->fence);
  VkResult result = ProcessEnding() ? VK_TIMEOUT : fn.vkWaitForFences(device, uint32_t(fences.size()), fences.data(), 1, 2000ull * 1000 * 1000);
  if (result != VK_SUCCESS) abandoned = true;
  for (auto& [id, submission] : pending) {
    if (!abandoned) freeFences.push_back(submission->fence);
    // The promise is never settled: its environment is gone.
    submission->deferred.reset();
  }
  // The submissions may hold the last references to this device (through
  // their commands, semaphores and staging, once the script disposed the
  // device itself): they go after this function has finished with it, and
  // the device with them.
  std::shared_ptr<DeviceState> self = shared_from_this();
  auto done = std::move(pending);
  pending.clear();
  done.clear();
}

DeviceState::DeviceState() = default;

DeviceState::~DeviceState() {
  if (env && !closed) napi_remove_env_cleanup_hook(env, CloseHook, this);
  if (waiter) waiter->Stop();
  if (LeftToProcessEnd() || !device || !fn.vkDestroyDevice) return;
  if (fn.vkDeviceWaitIdle) fn.vkDeviceWaitIdle(device);
  for (VkFence fence : freeFences) fn.vkDestroyFence(device, fence, nullptr);
  for (auto& [name, pipeline] : pipelines) fn.vkDestroyPipeline(device, pipeline, nullptr);
  if (pipelineLayout) fn.vkDestroyPipelineLayout(device, pipelineLayout, nullptr);
  if (setLayout) fn.vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  if (pool) fn.vkDestroyCommandPool(device, pool, nullptr);
  fn.vkDestroyDevice(device, nullptr);
}

VkFence DeviceState::TakeFence(Napi::Env napiEnv) {
  if (!freeFences.empty()) {
    VkFence fence = freeFences.back();
    freeFences.pop_back();
    return fence;
  }
  VkFenceCreateInfo create{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
  VkFence fence = 0;
  VK_CHECK(napiEnv, fn, vkCreateFence, device, &create, nullptr, &fence);
  return fence;
}

int32_t DeviceState::FindMemoryType(uint32_t typeBits, VkFlags required, VkFlags preferred) const {
  int32_t fallback = -1;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if (!(typeBits & (1u << i))) continue;
    VkFlags flags = memory.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return int32_t(i);
    if (fallback < 0) fallback = int32_t(i);
  }
  return fallback;
}

VkCommandBuffer DeviceState::BeginOneTime(Napi::Env napiEnv) {
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cb = nullptr;
  VK_CHECK(napiEnv, fn, vkAllocateCommandBuffers, device, &allocate, &cb);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
  VkOutcome begun = VK_CALL(fn, vkBeginCommandBuffer, cb, &begin);
  if (begun.result < 0) {
    fn.vkFreeCommandBuffers(device, pool, 1, &cb);
    ThrowVkError(napiEnv, begun);
  }
  return cb;
}

Napi::Value DeviceState::Submit(Napi::Env napiEnv, const std::vector<VkCommandBuffer>& buffers, const std::vector<VkSemaphore>& wait,
                                const std::vector<VkSemaphore>& signal, std::unique_ptr<Submission> submission, VkFlags waitStage) {
  if (closed) throw Napi::Error::New(napiEnv, "the environment is shutting down");
  VkFence fence = TakeFence(napiEnv);
  VkFlags stages[16];
  for (size_t i = 0; i < wait.size() && i < 16; ++i) stages[i] = waitStage;
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr,        uint32_t(wait.size()),   wait.data(),  stages,
                    uint32_t(buffers.size()),      buffers.data(), uint32_t(signal.size()), signal.data()};
  VkOutcome submitted = VK_CALL(fn, vkQueueSubmit, queue, 1, &info, fence);
  if (submitted.result < 0) {
    freeFences.push_back(fence);
    ThrowVkError(napiEnv, submitted);
  }
  uint64_t id = nextSubmission++;
  submission->fence = fence;
  // A submission keeps its device until it is done, also one that holds
  // nothing else (queue.idle()): disposed with it in flight, the device went
  // with its pending list, and the promise never settled.
  submission->holds.push_back(shared_from_this());
  Napi::Value promise = submission->deferred ? Napi::Value(submission->deferred->Promise()) : napiEnv.Undefined();
  if (pending.empty()) waiter->Hold(napiEnv, true);
  pending.emplace(id, std::move(submission));
  waiter->Watch(id, fence);
  return promise;
}

void DeviceState::Complete(Napi::Env napiEnv, uint64_t id, const VkOutcome& waited) {
  VkResult result = waited.result;
  auto it = pending.find(id);
  if (it == pending.end()) return;
  std::unique_ptr<Submission> submission = std::move(it->second);
  pending.erase(it);
  if (pending.empty() && waiter) waiter->Hold(napiEnv, false);
  if (result == VK_SUCCESS) {
    fn.vkResetFences(device, 1, &submission->fence);
    freeFences.push_back(submission->fence);
  } else {
    fn.vkDestroyFence(device, submission->fence, nullptr);  // a failed wait (device lost): not reused
  }
  Napi::HandleScope scope(napiEnv);
  if (!submission->deferred) return;
  try {
    if (result != VK_SUCCESS) ThrowVkError(napiEnv, waited);
    Napi::Value value = submission->result ? submission->result(napiEnv) : napiEnv.Undefined();
    submission->deferred->Resolve(value);
  } catch (const Napi::Error& error) {
    submission->deferred->Reject(error.Value());
  }
}

void FullBarrier(const DeviceApi& fn, VkCommandBuffer cb) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT,
                          VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

namespace {

// Semaphores of a submit: NativeVkSemaphore[] (checked by lib/vulkan), held by the submission.
void Semaphores(const Napi::Value& value, const char* what, std::vector<VkSemaphore>& out, Submission& submission) {
  if (value.IsUndefined() || value.IsNull()) return;
  if (!value.IsArray()) throw Napi::TypeError::New(value.Env(), std::string(what) + " must be an array of NativeVkSemaphore");
  Napi::Array array = value.As<Napi::Array>();
  uint32_t n = array.Length();
  if (n > 16) throw Napi::RangeError::New(value.Env(), std::string(what) + " holds more than 16 semaphores");
  for (uint32_t i = 0; i < n; ++i) {
    const std::shared_ptr<SemaphoreState>& state = NativeVkSemaphore::From(array.Get(i), what);
    out.push_back(state->semaphore);
    submission.holds.push_back(state);
  }
}

}  // namespace

// submit(commands: NativeVkCommands | null, wait: NativeVkSemaphore[] | undefined, signal: ... | undefined,
//        waitStage?: VkPipelineStageFlags (default: the stages the commands run at; all commands without commands)) -> Promise<void>
Napi::Value NativeVkDevice::SubmitMethod(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DeviceRef& device = Live(env);
  auto submission = std::make_unique<Submission>(env, true);
  std::vector<VkCommandBuffer> buffers;
  VkFlags waitStage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  if (!info[0].IsNull() && !info[0].IsUndefined()) {
    const std::shared_ptr<CommandsState>& commands = NativeVkCommands::From(info[0], "commands");
    if (commands->device != device) throw Napi::TypeError::New(env, "commands were recorded on another device");
    buffers.push_back(commands->buffer);
    submission->holds.push_back(commands);
    if (commands->stages) waitStage = commands->stages;
  }
  if (info.Length() > 3 && !info[3].IsUndefined()) waitStage = VkFlags(ToU64(info[3], "waitStage"));
  if (!waitStage) throw Napi::RangeError::New(env, "waitStage must name at least one pipeline stage");
  std::vector<VkSemaphore> wait, signal;
  Semaphores(info[1], "wait", wait, *submission);
  Semaphores(info[2], "signal", signal, *submission);
  return device->Submit(env, buffers, wait, signal, std::move(submission), waitStage);
}

// pending() -> submissions in flight
Napi::Value NativeVkDevice::Pending(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), double(Live(info.Env())->pending.size()));
}

void NativeVkDevice::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports,
           {InstanceMethod("createBuffer", &NativeVkDevice::CreateBuffer), InstanceMethod("createImage", &NativeVkDevice::CreateImage),
            InstanceMethod("imageSupport", &NativeVkDevice::ImageSupport), InstanceMethod("createSemaphore", &NativeVkDevice::MakeSemaphore),
            InstanceMethod("record", &NativeVkDevice::Record), InstanceMethod("submit", &NativeVkDevice::SubmitMethod),
            InstanceMethod("pending", &NativeVkDevice::Pending)});
}

void InitDevice(Napi::Env env, Napi::Object exports) { NativeVkDevice::Init(env, exports); }

}  // namespace vk
}  // namespace ocl
