// The fence waiter's thread and its reports to the JavaScript thread (fence_waiter.h).
#include "vulkan/fence_waiter.h"

#include "thread_name.h"

namespace ocl {
namespace vk {

FenceWaiter::FenceWaiter(Napi::Env env, const char* resourceName, const char* threadName, std::weak_ptr<void> owner, Completion complete,
                         VkDevice device, decltype(DeviceApi::vkWaitForFences) wait)
    : owner_(std::move(owner)), complete_(complete), device_(device), fn_{wait} {
  tsfn_ = Tsfn::New(env, resourceName, 0, 1);
  tsfn_.Unref(env);
  thread_ = std::thread([this, name = std::string(threadName)] {
    NameThisThread(name.c_str());
    Run();
  });
}

void FenceWaiter::Watch(uint64_t id, VkFence fence) {
  {
    std::lock_guard<std::mutex> guard(mutex_);
    queue_.emplace_back(id, fence);
  }
  wake_.notify_one();
}

void FenceWaiter::Stop() {
  {
    std::lock_guard<std::mutex> guard(mutex_);
    if (stopped_) return;
    stopped_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  tsfn_.Release();
}

void FenceWaiter::Hold(Napi::Env env, bool hold) {
  if (hold) tsfn_.Ref(env);
  else tsfn_.Unref(env);
}

void FenceWaiter::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopped_ || !queue_.empty(); });
    if (stopped_) return;
    auto [id, fence] = queue_.front();
    lock.unlock();
    // A bounded wait, so that Stop() is seen while a fence never signals.
    VkOutcome waited = VK_CALL(fn_, vkWaitForFences, device_, 1, &fence, 1, 100ull * 1000 * 1000);
    lock.lock();
    if (waited.result == VK_TIMEOUT) continue;
    queue_.pop_front();
    if (stopped_) return;
    auto* done = new Done{owner_, complete_, id, waited};
    if (tsfn_.NonBlockingCall(done) != napi_ok) delete done;
  }
}

void FenceWaiter::CallJs(Napi::Env env, Napi::Function, void*, Done* done) {
  if (env != nullptr && done != nullptr) {
    // The owner is held while it completes (its last reference may be one a completed frame or submission held).
    if (std::shared_ptr<void> owner = done->owner.lock()) done->complete(env, owner.get(), done->id, done->waited);
  }
  delete done;
}

}  // namespace vk
}  // namespace ocl
