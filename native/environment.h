// What the addon keeps per Node environment (main thread or worker): the
// AddonData that every file reaches through AddonData::Get(env), and the
// table of wrapped objects by slot.
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ocl {

// A typed array the addon made and hands to lib/ (the NDRange sizes, the
// kernel argument operations, a kernel's argument store). Its data pointer is
// kept: an ArrayBuffer's memory neither moves nor shrinks while it is
// attached, and each use asks only whether a script that reached the array
// detached it since (transferred it away), which is a TypeError naming
// `what`. (Looking the data up through the typed array at each use cost
// about 1.2 k instructions; this check costs about 0.15 k.)
template <typename Array, typename T>
class HeldArray {
 public:
  bool IsEmpty() const { return buffer_.IsEmpty(); }
  // Makes the array (once); returns it.
  Array Make(Napi::Env env, size_t length) {
    Array array = Array::New(env, length);
    buffer_ = Napi::Persistent(array.ArrayBuffer());
    view_ = Napi::Persistent(array);
    data_ = array.Data();
    length_ = length;
    return array;
  }
  // Makes the array (once) as a view of `buffer` from element `offset`: one
  // detach check (Data) covers every array on that buffer (DataOfChecked).
  Array MakeOn(Napi::Env env, Napi::ArrayBuffer buffer, size_t offset, size_t length) {
    Array array = Array::New(env, length, buffer, offset * sizeof(T));
    buffer_ = Napi::Persistent(buffer);
    view_ = Napi::Persistent(array);
    data_ = array.Data();
    length_ = length;
    return array;
  }
  Array Value() const { return view_.Value(); }
  // After a Data() of another array on the same buffer in the same call.
  T* DataOfChecked(size_t& length) const {
    length = length_;
    return data_;
  }
  T* Data(Napi::Env env, size_t& length, const char* what) const {
    bool detached = true;
    if (buffer_.IsEmpty() || napi_is_detached_arraybuffer(env, buffer_.Value(), &detached) != napi_ok || detached) {
      length = 0;
      throw Napi::TypeError::New(env, std::string(what) + " was detached (transferred away): the addon no longer reads it");
    }
    length = length_;
    return data_;
  }

 private:
  Napi::Reference<Napi::ArrayBuffer> buffer_;
  Napi::Reference<Array> view_;
  T* data_ = nullptr;
  size_t length_ = 0;
};

class CallbackHub;
class EventTable;

// Ids of table slots, as JS numbers: generation * 2^24 + index, exact in a
// double. A slot's generation changes when it is freed, so a stale id never
// names the slot's next occupant.
struct SlotId {
  static constexpr uint32_t kIndexBits = 24;
  static constexpr uint32_t kMaxIndex = (1u << kIndexBits) - 1;
  static constexpr uint32_t kGenerationLimit = 1u << 28;
  uint32_t index;
  uint32_t generation;
  double ToDouble() const { return static_cast<double>(generation) * (1u << kIndexBits) + index; }
  // False for what no slot could have made (negative, fractional, too large).
  static bool FromDouble(double id, SlotId& out) {
    if (!(id >= 0 && id < 9007199254740992.0) || id != static_cast<double>(static_cast<uint64_t>(id))) return false;
    auto bits = static_cast<uint64_t>(id);
    out.index = static_cast<uint32_t>(bits & kMaxIndex);
    out.generation = static_cast<uint32_t>(bits >> kIndexBits);
    return true;
  }
  static uint32_t Next(uint32_t generation) { return generation + 1 < kGenerationLimit ? generation + 1 : 1; }
};

// Every wrapped native object (Handle) of an environment, by slot: the hot
// calls take a number instead of unwrapping an object and checking its type
// tag (two private-symbol lookups each).
class ObjectTable {
 public:
  double Add(void* object, const napi_type_tag* tag) {
    uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      index = static_cast<uint32_t>(entries_.size());
      entries_.push_back({});
    }
    entries_[index].object = object;
    entries_[index].tag = tag;
    return SlotId{index, entries_[index].generation}.ToDouble();
  }
  void Remove(double id) {
    SlotId slot;
    if (!SlotId::FromDouble(id, slot) || slot.index >= entries_.size()) return;
    Entry& entry = entries_[slot.index];
    if (entry.generation != slot.generation) return;
    entry = {nullptr, nullptr, SlotId::Next(entry.generation)};
    free_.push_back(slot.index);
  }
  // The object with this id and type tag, or null.
  void* Find(double id, const napi_type_tag* tag) const {
    SlotId slot;
    if (!SlotId::FromDouble(id, slot) || slot.index >= entries_.size()) return nullptr;
    const Entry& entry = entries_[slot.index];
    return entry.generation == slot.generation && entry.tag == tag ? entry.object : nullptr;
  }

 private:
  struct Entry {
    void* object = nullptr;
    const napi_type_tag* tag = nullptr;
    uint32_t generation = 1;
  };
  std::vector<Entry> entries_;
  std::vector<uint32_t> free_;
};

// One per Node environment (main thread or worker).
struct AddonData {
  // The error classes lib/ installs once (setErrorClasses), by class name.
  Napi::ObjectReference errorClasses;
  std::unordered_map<const napi_type_tag*, Napi::FunctionReference> constructors;
  std::shared_ptr<CallbackHub> hub;
  // Every event this environment holds (event.cc).
  std::shared_ptr<EventTable> events;
  ObjectTable objects;
  // enqueueNDRange's sizes, written by lib/queue.ts just before each call
  // (one Float64Array for the life of the environment: no array to read per call).
  // The addon makes both arrays and hands them out once (queue.cc, takeCallArrays);
  // a detached array is refused at its next use (HeldArray, convert.h).
  HeldArray<Napi::Float64Array, double> ndrangeSizes;
  // The kernel arguments lib/kernel.ts holds for the next enqueueNDRange.
  HeldArray<Napi::Float64Array, double> argOps;

  static AddonData& Get(Napi::Env env) { return *env.GetInstanceData<AddonData>(); }
};

}  // namespace ocl
