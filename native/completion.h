// How the driver's news reaches JS (completion.cc). Driver callbacks (event
// status, context errors) arrive on driver threads and reach JS only through
// one ThreadSafeFunction per environment (CallbackHub); where the driver has
// no event callbacks a polling thread stands in for them (NotifyOnStatus).
#pragma once

#include <napi.h>

#include <memory>
#include <mutex>
#include <unordered_map>

#include "cl_api.h"
#include "status_notify.h"

namespace ocl {

class CallbackHub {
 public:
  // Work to run on the JS thread. Deleted on the thread that drops it when the
  // environment is gone, so it must not own JS references.
  struct Delivery {
    virtual ~Delivery() = default;
    virtual void Deliver(Napi::Env env, CallbackHub& hub) = 0;
    bool keepsAlive = false;
  };

  static std::shared_ptr<CallbackHub> Create(Napi::Env env);

  // Any thread. Takes ownership.
  void Post(Delivery* delivery);
  // Any thread: false once the environment is being torn down.
  bool IsOpen();
  // JS thread: while a keep-alive delivery is pending the event loop stays alive.
  void Hold(Napi::Env env);
  // JS thread: context error listeners, keyed by id.
  uint64_t AddListener(Napi::Function fn);
  void RemoveListener(uint64_t id);
  Napi::FunctionReference* Listener(uint64_t id);

 private:
  static void CallJs(Napi::Env env, Napi::Function, CallbackHub* hub, Delivery* delivery);
  static void Close(void* hub);

  using Tsfn = Napi::TypedThreadSafeFunction<CallbackHub, Delivery, CallJs>;
  std::mutex mutex_;
  bool open_ = true;
  Tsfn tsfn_;
  uint32_t holds_ = 0;
  uint64_t nextListener_ = 1;
  std::unordered_map<uint64_t, Napi::FunctionReference> listeners_;
};

// Compiler work in flight at process exit. Drivers that compile on their own
// threads (PoCL: clBuildProgram on the libuv pool here, and each kernel's code
// at its first run on the driver's threads) crash when exit() runs the
// compiler's static destructors under them (LLVM's, some of which are made
// during compiling, so no exit handler registered earlier runs before them).
// The addon counts builds in flight (program.cc) and keeps the events of
// kernel commands on CPU devices (queue.cc; lib/queue.ts says which) until
// it sees them ended (pruned as each queue's list doubles, and at the
// queue's release), process-wide, by environment: waitForCompilerWork(), called from
// the main thread's 'exit' event, and each environment's cleanup hook (a
// worker that exits or is terminated: its own work) wait for the builds and
// for kernel commands the driver has started, up to a bound; commands still
// queued behind events (a user event never set) are not waited for.
// `environment` is the AddonData of the environment that started the work (an
// identity only).
void NoteBuildStarted(const void* environment);
void NoteBuildEnded(const void* environment);
void NoteKernelCommand(const CoreApi& api, const void* environment, cl_command_queue queue, cl_event event);

// The queue's handle is about to be released: its waiting thread ends once
// idle, and its kept kernel commands stay kept until they end.
void ForgetQueue(cl_command_queue queue);

// Makes the environment's CallbackHub, registers eventWhenStatus and
// waitForCompilerWork, and the environment's exit wait (addon.cc).
void InitCompletion(Napi::Env env, Napi::Object exports);

}  // namespace ocl
