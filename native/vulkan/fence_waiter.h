// A thread that waits on an owner's fences in the order they were submitted
// (each with a bounded vkWaitForFences, so that Stop() is seen while a fence
// never signals) and reports each to the JavaScript thread through a
// ThreadSafeFunction, where the owner's Complete(env, id, waited) settles
// what the fence ended. The owner is held weakly: a fence that ends after its
// owner is gone is dropped. Used by a device (native/vulkan/device.cc) and by
// each video decoder (native/video/decoder_state.cc).
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "vulkan/module.h"

namespace ocl {
namespace vk {

class FenceWaiter {
 public:
  // JS thread, for each fence while its owner lives: `waited` is the wait's outcome (its result and the call's name).
  using Completion = void (*)(Napi::Env env, void* owner, uint64_t id, const VkOutcome& waited);

  // `resourceName` names the ThreadSafeFunction (async hooks), `threadName` the thread (at most 15 characters).
  FenceWaiter(Napi::Env env, const char* resourceName, const char* threadName, std::weak_ptr<void> owner, Completion complete, VkDevice device,
              decltype(DeviceApi::vkWaitForFences) wait);
  // A waiter that calls owner->Complete(env, id, waited) (Owner::Complete takes (Napi::Env, uint64_t, const VkOutcome&)).
  template <typename Owner>
  static std::unique_ptr<FenceWaiter> For(Napi::Env env, const char* resourceName, const char* threadName, std::weak_ptr<Owner> owner,
                                          VkDevice device, decltype(DeviceApi::vkWaitForFences) wait) {
    Completion complete = [](Napi::Env env, void* owner, uint64_t id, const VkOutcome& waited) {
      static_cast<Owner*>(owner)->Complete(env, id, waited);
    };
    return std::make_unique<FenceWaiter>(env, resourceName, threadName, std::weak_ptr<void>(std::move(owner)), complete, device, wait);
  }
  ~FenceWaiter() { Stop(); }

  void Watch(uint64_t id, VkFence fence);
  // JS thread: idempotent.
  void Stop();
  // The event loop stays alive while fences are watched (held from the first in flight to the last done).
  void Hold(Napi::Env env, bool hold);

 private:
  struct Done {
    std::weak_ptr<void> owner;
    Completion complete;
    uint64_t id;
    VkOutcome waited;
  };
  // Defined out of the class: GCC folds `CallJs != nullptr` (the template
  // argument's check) for a function defined once, but not for an inline one
  // under -fsanitize=undefined (-fno-delete-null-pointer-checks).
  static void CallJs(Napi::Env env, Napi::Function, void*, Done* done);
  using Tsfn = Napi::TypedThreadSafeFunction<void, Done, CallJs>;

  void Run();

  std::weak_ptr<void> owner_;
  Completion complete_;
  VkDevice device_;
  struct {
    decltype(DeviceApi::vkWaitForFences) vkWaitForFences;
  } fn_;  // the one entry point the thread calls, taken from the device's table
  Tsfn tsfn_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<uint64_t, VkFence>> queue_;
  bool stopped_ = false;
};

}  // namespace vk
}  // namespace ocl
