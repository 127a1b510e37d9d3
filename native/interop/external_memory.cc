// cl_khr_external_memory (+ _opaque_fd, _dma_buf, _win32): buffers and images
// imported from another API's memory handle (clCreateBufferWithProperties /
// clCreateImageWithProperties with the handle in the property list), and
// their acquire / release. Which handle, whose ownership and which devices
// are decided in lib/interop/external-memory.ts; this file converts and calls.
#include "interop/sharing.h"
#include "status_notify.h"

#include <chrono>
#include <thread>

namespace ocl {

PropertyList::PropertyList(const Napi::Value& pairs, const char* what) {
  Napi::Env env = pairs.Env();
  if (!pairs.IsArray()) throw Napi::TypeError::New(env, std::string(what) + " must be an array of [name, value]");
  Napi::Array list = pairs.As<Napi::Array>();
  for (uint32_t i = 0; i < list.Length(); ++i) {
    Napi::Value pair = list.Get(i);
    if (!pair.IsArray() || pair.As<Napi::Array>().Length() != 2) {
      throw Napi::TypeError::New(env, std::string(what) + " entries must be [name, value]");
    }
    values_.push_back(ToU64(pair.As<Napi::Array>().Get(0u), what));
    Napi::Value value = pair.As<Napi::Array>().Get(1u);
    if (value.IsString()) {
      strings_.push_back(std::make_unique<std::u16string>(value.As<Napi::String>().Utf16Value()));
      values_.push_back(static_cast<cl_ulong>(reinterpret_cast<uintptr_t>(strings_.back()->c_str())));
    } else if (value.IsArray()) {
      Napi::Array items = value.As<Napi::Array>();
      for (uint32_t j = 0; j < items.Length(); ++j) {
        Napi::Value item = items.Get(j);
        if (item.IsObject()) {
          values_.push_back(static_cast<cl_ulong>(reinterpret_cast<uintptr_t>(NativeDevice::From(item, what))));
        } else {
          values_.push_back(ToU64(item, what));
        }
      }
      values_.push_back(0);  // *_LIST_END_KHR
    } else {
      values_.push_back(ToU64(value, what));
    }
  }
  values_.push_back(0);
}

namespace {

using CreateBufferFn = cl_mem(OCL_CALL*)(cl_context, const cl_ulong*, cl_mem_flags, size_t, void*, cl_int*);
using CreateImageFn = cl_mem(OCL_CALL*)(cl_context, const cl_ulong*, cl_mem_flags, const cl_image_format*, const cl_image_desc*, void*, cl_int*);

class NativeExternalMemory : public SharingBase<NativeExternalMemory> {
 public:
  // (platform, legacy, { acquire, release }, { buffer, image }: the creating
  // calls' names, loaderFallback: whether the loader's own export may be used
  // when the platform does not answer for them (an OpenCL 3.0 platform: its
  // dispatch table has them). The creating calls are roles "buffer" and "image".
  explicit NativeExternalMemory(const Napi::CallbackInfo& info) : SharingBase(info) {
    Napi::Env env = info.Env();
    if (!info[3].IsObject()) throw Napi::TypeError::New(env, "creating calls must be an object { buffer, image }");
    Napi::Object names = info[3].As<Napi::Object>();
    bool loaderFallback = info[4].ToBoolean();
    const CoreApi& api = Api(env);
    AddCoreEntry(env, "buffer", names.Get("buffer"), loaderFallback ? reinterpret_cast<void*>(api.clCreateBufferWithProperties) : nullptr);
    AddCoreEntry(env, "image", names.Get("image"), loaderFallback ? reinterpret_cast<void*>(api.clCreateImageWithProperties) : nullptr);
    try {
      held_.SetRelease(Entry<AcquireFn>(env, "release").fn);
    } catch (const Napi::Error&) {
      // No release entry point: acquire is refused the same way, so nothing is ever held.
    }
  }

  static void Init(Napi::Env env, Napi::Object exports) {
    Register(env, exports, "NativeExternalMemory",
             {InstanceMethod("createBuffer", &NativeExternalMemory::CreateBuffer), InstanceMethod("createImage", &NativeExternalMemory::CreateImage),
              InstanceMethod("acquire", &NativeExternalMemory::Acquire), InstanceMethod("release", &NativeExternalMemory::Release)});
  }

 private:
  // createBuffer(context, properties, flags, size)
  Napi::Value CreateBuffer(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    PropertyList properties(info[1], "properties");
    cl_mem_flags flags = FlagsArg(info[2]);
    size_t size = ToSize(info[3], "size");
    auto entry = Entry<CreateBufferFn>(env, "buffer");
    return CreateMem(env, entry, NativeContext::From(info[0], "context"), properties.data(), flags, size, nullptr);
  }

  // createImage(context, properties, flags, [order, type], { type, width, height, depth, arraySize, rowPitch, slicePitch })
  Napi::Value CreateImage(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    PropertyList properties(info[1], "properties");
    cl_mem_flags flags = FlagsArg(info[2]);
    ImageArgs image = ToImageArgs(info[3], info[4]);
    auto entry = Entry<CreateImageFn>(env, "image");
    return CreateMem(env, entry, NativeContext::From(info[0], "context"), properties.data(), flags, &image.format, &image.desc, nullptr);
  }

  Napi::Value Acquire(const Napi::CallbackInfo& info) {
    return AcquireOrRelease(info, Entry<AcquireFn>(info.Env(), "acquire"),
                            [this](cl_command_queue queue, const std::vector<cl_mem>& mems, cl_event event) { held_.Add(queue, mems, event); });
  }
  Napi::Value Release(const Napi::CallbackInfo& info) {
    return AcquireOrRelease(info, Entry<AcquireFn>(info.Env(), "release"),
                            [this](cl_command_queue, const std::vector<cl_mem>& mems, cl_event) { held_.Forget(mems); });
  }

  // Memory this environment acquired and has not released, with the queue it
  // was acquired on and the acquire's event, each retained. NVIDIA's driver
  // (580) never returns from the teardown of a context whose imported memory
  // is still acquired: a script that ends, throws or is a worker terminated
  // with memory acquired never exits. Before the environment's
  // objects are finalized, the cleanup hook releases what is still acquired
  // on the queue it was acquired on (which the retain keeps alive even after
  // the user released it) and waits for that, bounded.
  class Held {
   public:
    explicit Held(Napi::Env env) : env_(env) { napi_add_env_cleanup_hook(env, ReleaseAtTeardown, this); }
    ~Held() {
      if (!tornDown_) napi_remove_env_cleanup_hook(env_, ReleaseAtTeardown, this);
      Drop(entries_);
    }
    void Add(cl_command_queue queue, const std::vector<cl_mem>& mems, cl_event acquired) {
      const CoreApi& api = Api(env_);
      for (cl_mem mem : mems) {
        api.clRetainCommandQueue(queue);
        api.clRetainMemObject(mem);
        api.clRetainEvent(acquired);
        entries_.push_back({queue, mem, acquired});
      }
    }
    void Forget(const std::vector<cl_mem>& mems) {
      std::vector<Entry> gone;
      for (cl_mem mem : mems) {
        for (size_t i = 0; i < entries_.size(); ++i) {
          if (entries_[i].mem != mem) continue;
          gone.push_back(entries_[i]);
          entries_.erase(entries_.begin() + long(i));
          break;
        }
      }
      Drop(gone);
    }
    void SetRelease(AcquireFn release) { release_ = release; }

   private:
    struct Entry {
      cl_command_queue queue;
      cl_mem mem;
      cl_event acquired;
    };
    static void Drop(std::vector<Entry>& entries) {
      const CoreApi* api = ReleaseApiOrNull();
      if (!api) return;
      for (const Entry& e : entries) {
        api->clReleaseEvent(e.acquired);
        api->clReleaseMemObject(e.mem);
        api->clReleaseCommandQueue(e.queue);
      }
      entries.clear();
    }
    static void ReleaseAtTeardown(void* data) {
      auto* self = static_cast<Held*>(data);
      self->tornDown_ = true;
      // Also at the process's end, when nothing is destroyed (ProcessEnding): the driver's own teardown then finds
      // no memory acquired, as after a script that released it (NVIDIA's blocked on acquired memory).
      const CoreApi* api = ApiOrNull();
      if (!api || !self->release_ || self->entries_.empty()) return;
      using Clock = std::chrono::steady_clock;
      const auto until = Clock::now() + std::chrono::seconds(5);
      // Every acquire that has not failed gets its release, behind it: one
      // still waiting (on a semaphore a dying worker's Vulkan work signals
      // later, or a user event never set) may run after this hook, and memory
      // acquired then and destroyed would block for ever (NVIDIA; the
      // reference driver as NVIDIA). A release that cannot run holds the
      // memory, which is then never destroyed acquired.
      std::vector<cl_event> releases;
      for (const Entry& e : self->entries_) {
        if (StatusOf(*api, e.acquired) < CL_COMPLETE) continue;
        cl_event released = nullptr;
        cl_mem mem = e.mem;
        cl_event after = e.acquired;
        if (self->release_(e.queue, 1, &mem, 1, &after, &released) == CL_SUCCESS && released) releases.push_back(released);
        api->clFlush(e.queue);
      }
      for (cl_event released : releases) {
        while (StatusOf(*api, released) > CL_COMPLETE && Clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        api->clReleaseEvent(released);
      }
      Drop(self->entries_);
    }
    Napi::Env env_;
    AcquireFn release_ = nullptr;
    bool tornDown_ = false;
    std::vector<Entry> entries_;
  };

  Held held_{Env()};
};

}  // namespace

void InitExternalMemory(Napi::Env env, Napi::Object exports) { NativeExternalMemory::Init(env, exports); }

}  // namespace ocl
