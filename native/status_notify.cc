// NotifyOnStatus: clSetEventCallback, or one polling thread per process for
// drivers without event callbacks (status_notify.h).
#include "status_notify.h"
#include "thread_name.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "loader.h"

namespace ocl {

namespace {

// For drivers without event callbacks (OpenCL 1.0, such as Wine's opencl.dll,
// which answers clSetEventCallback with CL_INVALID_OPERATION): one thread per
// process polls the watched events and notifies as the callback would.
class StatusPoller {
 public:
  static StatusPoller& Instance() {
    static auto* poller = new StatusPoller();  // never destroyed: its thread may outlive static teardown
    return *poller;
  }

  struct Watched {
    cl_event event;
    cl_int execStatus;
    StatusNotify notify;
    void* user;
    bool (*abandoned)(void*);  // its receiver is gone: drop instead of notifying
    void (*drop)(void*);
  };

  // Takes a reference on the event. False when no thread could be started.
  bool Watch(const CoreApi& api, const Watched& watched) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!started_) {
      try {
        std::thread([this] {
          NameThisThread("ocl-status");
          Run();
        }).detach();
      } catch (const std::system_error&) {
        return false;
      }
      started_ = true;
      std::atexit(Stop);
    }
    api.clRetainEvent(watched.event);
    incoming_.push_back(watched);
    wake_.notify_one();
    return true;
  }

 private:
  // At exit the driver may be tearing itself down: no calls into it after
  // this returns. On Windows the thread may already have been terminated
  // mid-round, so the wait is bounded.
  static void Stop() {
    StatusPoller& self = Instance();
    self.stopping_ = true;
    for (int i = 0; i < 100 && self.inRound_; i++) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  void Run() {
    std::vector<Watched> watched;
    auto pause = std::chrono::microseconds(20);
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        if (watched.empty()) wake_.wait(lock, [this] { return !incoming_.empty(); });
        else wake_.wait_for(lock, pause, [this] { return !incoming_.empty(); });
        if (!incoming_.empty()) pause = std::chrono::microseconds(20);
        watched.insert(watched.end(), incoming_.begin(), incoming_.end());
        incoming_.clear();
      }
      inRound_ = true;
      if (stopping_) {
        inRound_ = false;
        return;
      }
      const CoreApi* api = ApiOrNull();
      bool progressed = false;
      for (auto it = watched.begin(); it != watched.end();) {
        bool abandoned = it->abandoned && it->abandoned(it->user);
        cl_int status = CL_QUEUED;
        if (!abandoned) {
          cl_int queried = api->clGetEventInfo(it->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
          if (queried != CL_SUCCESS) status = queried;
          if (status > it->execStatus) {
            ++it;
            continue;
          }
        }
        if (abandoned) {
          if (it->drop) it->drop(it->user);
        } else {
          it->notify(it->event, status < 0 ? status : it->execStatus, it->user);  // as a callback reports it
        }
        api->clReleaseEvent(it->event);
        it = watched.erase(it);
        progressed = true;
      }
      inRound_ = false;
      pause = progressed ? std::chrono::microseconds(20) : std::min(pause * 2, std::chrono::microseconds(2000));
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Watched> incoming_;
  bool started_ = false;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> inRound_{false};
};

}  // namespace

cl_int NotifyOnStatus(const CoreApi& api, cl_event event, cl_int execStatus, StatusNotify notify, void* user, bool (*abandoned)(void*),
                      void (*drop)(void*)) {
  cl_int status = api.clSetEventCallback ? api.clSetEventCallback(event, execStatus, notify, user) : CL_INVALID_OPERATION;
  if (status != CL_INVALID_OPERATION) return status;
  // The same argument check clSetEventCallback makes.
  if (execStatus != CL_COMPLETE && execStatus != CL_RUNNING && execStatus != CL_SUBMITTED) return CL_INVALID_VALUE;
  return StatusPoller::Instance().Watch(api, {event, execStatus, notify, user, abandoned, drop}) ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

}  // namespace ocl
