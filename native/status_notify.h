// A driver's news of one event's status, on some thread: its event callback,
// or a polling thread where the driver has none (status_notify.cc). Below
// the event table (event.cc) and completion (completion.cc), which use it.
#pragma once

#include "cl_api.h"

namespace ocl {

// Calls notify(event, status, user) on some thread once the event reaches
// execStatus or fails: through clSetEventCallback, or a polling thread where
// the driver has no event callbacks. Not CL_SUCCESS: notify will not be called.
using StatusNotify = EventNotify;
cl_int NotifyOnStatus(const CoreApi& api, cl_event event, cl_int execStatus, StatusNotify notify, void* user, bool (*abandoned)(void*) = nullptr,
                      void (*drop)(void*) = nullptr);

// The event's execution status as the driver says it now; -1 when the query fails.
inline cl_int StatusOf(const CoreApi& api, cl_event event) {
  cl_int status = CL_QUEUED;
  return api.clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr) == CL_SUCCESS ? status : -1;
}

}  // namespace ocl
