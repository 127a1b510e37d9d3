#include "callbacks.h"

namespace ocl {

std::shared_ptr<CallbackHub> CallbackHub::Create(Napi::Env env) {
  auto hub = std::make_shared<CallbackHub>();
  hub->tsfn_ = Tsfn::New(env, "opencl-interop callbacks", 0, 1, hub.get());
  hub->tsfn_.Unref(env);
  // Registered after the ThreadSafeFunction, so it runs before Node tears it down.
  napi_add_env_cleanup_hook(env, Close, hub.get());
  return hub;
}

void CallbackHub::Close(void* data) {
  auto* hub = static_cast<CallbackHub*>(data);
  std::lock_guard<std::mutex> lock(hub->mutex_);
  hub->open_ = false;
  hub->listeners_.clear();
}

void CallbackHub::Post(Delivery* delivery) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!open_ || tsfn_.NonBlockingCall(delivery) != napi_ok) delete delivery;
}

bool CallbackHub::IsOpen() {
  std::lock_guard<std::mutex> lock(mutex_);
  return open_;
}

void CallbackHub::Hold(Napi::Env env) {
  if (holds_++ == 0) tsfn_.Ref(env);
}

void CallbackHub::CallJs(Napi::Env env, Napi::Function, CallbackHub* hub, Delivery* delivery) {
  std::unique_ptr<Delivery> owned(delivery);
  if (env == nullptr || delivery == nullptr) return;
  if (delivery->keepsAlive && --hub->holds_ == 0) hub->tsfn_.Unref(env);
  try {
    delivery->Deliver(env, *hub);
  } catch (const Napi::Error& error) {
    // Report a listener's exception as uncaught; during environment teardown
    // JS cannot run at all, and nothing may escape into the driver's thread.
    try {
      error.ThrowAsJavaScriptException();
    } catch (...) {
    }
  } catch (...) {
  }
}

uint64_t CallbackHub::AddListener(Napi::Function fn) {
  uint64_t id = nextListener_++;
  listeners_.emplace(id, Napi::Persistent(fn));
  return id;
}

void CallbackHub::RemoveListener(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_) listeners_.erase(id);
}

Napi::FunctionReference* CallbackHub::Listener(uint64_t id) {
  auto it = listeners_.find(id);
  return it == listeners_.end() ? nullptr : &it->second;
}

void InitCallbacks(Napi::Env env, Napi::Object) { AddonData::Get(env).hub = CallbackHub::Create(env); }

}  // namespace ocl
