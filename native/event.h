// The event table (event.cc): a command's event is a slot per environment,
// and JS holds its id.
#pragma once

#include "objects.h"

namespace ocl {

// Events are not wrapped JS objects: a command's event is a slot in a table
// per environment (event.cc), and JS holds its id, a number. That spares every
// command a JS object with a finalizer; lib/ releases each id explicitly (the
// owner, the queue's retiring of ended events, or the queue's release), and a
// queue collected without release takes its commands' events with it.
class EventTable {
 public:
  EventTable() = default;
  EventTable(const EventTable&) = delete;
  EventTable& operator=(const EventTable&) = delete;
  ~EventTable();

  struct Entry {
    cl_event event = nullptr;
    uint32_t generation = 1;
    // Releasing a user event that was never set fails it first, so commands
    // waiting on it end with an error instead of waiting forever, whatever the
    // driver does with an unset user event on its last release.
    bool pendingUser = false;
    // Events of commands waiting on this (unset) user event. PoCL fails a user
    // event on its last release and aborts if a waiting command's event is
    // already gone, so they are released only after this event.
    std::vector<cl_event> dependents;
  };

  // Takes ownership of the event (one reference); returns its id.
  Napi::Value Add(Napi::Env env, cl_event event);
  // The live entry an id names; throws a TypeError for what is not an id and
  // an OpenCLReleasedError for an id already released.
  Entry& Get(const Napi::Value& id, const char* what);
  // The live entry of an id, or null.
  Entry* Find(double id);
  void Release(Entry& entry);
  // Lets go of the commands waiting on a user event that has just failed (see event.cc).
  void ReleaseDependentsOfFailed(Entry& gate);
  // The events of commands enqueued on `queue` (it was collected unreleased).
  void ReleaseCommandsOf(cl_command_queue queue);

 private:
  std::vector<Entry> entries_;
  std::vector<uint32_t> free_;
};

// Lets go of a reference to the event of a command that failed a second or
// more later (at a later user event's setting or release): PoCL may still be
// failing it on its own thread after its status says so.
void ReleaseFailedLater(cl_event event);

// The live event an id names (errors name it `what`).
cl_event EventOf(const Napi::Value& id, const char* what = "event");
// Wait lists arrive as arrays of event ids (or undefined).
std::vector<cl_event> ToWaitList(const Napi::Value& v);
// The id of the event an enqueue produced (ownership passes to JS); undefined for none.
Napi::Value WrapEvent(Napi::Env env, cl_event event);

// Makes the environment's event table and registers the event functions (addon.cc).
void InitEvent(Napi::Env env, Napi::Object exports);

}  // namespace ocl
