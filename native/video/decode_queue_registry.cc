// Which decode queues of each physical device the decoders of the whole
// process are using, across its threads (each thread has its own Vulkan
// instance and device, lib/video/video-device.ts, and so its own
// DecodeQueues). On NVIDIA (driver 580) queue i of every VkDevice made on a
// GPU decodes on the same engine: seven worker threads, each decoding on its
// own device's queue 0, shared one engine. lib/video/decode-queues.ts keeps
// these counts so that decoders of different threads own, and borrow,
// different queues.
//
//   vkVideoQueueRegistry(deviceUuid: Uint8Array(16), queues) -> id
//   vkVideoQueueAdd(id, queue, owners, inFlight): adds to queue's counts
//   vkVideoQueueCounts(id) -> Int32Array [owners of queue 0, in flight on
//     queue 0, owners of queue 1, ...]
// What a thread added is taken back when its environment ends (a worker
// terminated with decoders alive or frames in flight leaves nothing behind).
#include <array>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "video/module.h"

namespace ocl {
namespace vk {
namespace {

std::mutex registryMutex;
// Process-wide and never freed: ids stay valid in every thread.
struct Registries {
  std::map<std::pair<std::array<uint8_t, 16>, uint32_t>, uint32_t> ids;
  std::vector<std::vector<int32_t>> counts;
  // What each live environment (thread) has added, by registry id.
  std::map<napi_env, std::map<uint32_t, std::vector<int32_t>>> byEnv;
};
Registries& All() {
  static auto* all = new Registries();
  return *all;
}

uint32_t Id(const Napi::CallbackInfo& info) {
  if (!info[0].IsNumber()) throw Napi::TypeError::New(info.Env(), "id must be a number");
  uint32_t id = info[0].As<Napi::Number>().Uint32Value();
  if (id >= All().counts.size()) throw Napi::RangeError::New(info.Env(), "no such decode queue registry");
  return id;
}

Napi::Value QueueRegistry(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array ||
      info[0].As<Napi::Uint8Array>().ByteLength() != 16)
    throw Napi::TypeError::New(env, "deviceUuid must be a Uint8Array of 16 bytes");
  if (!info[1].IsNumber()) throw Napi::TypeError::New(env, "queues must be a number");
  uint32_t queues = info[1].As<Napi::Number>().Uint32Value();
  if (queues == 0 || queues > 64) throw Napi::RangeError::New(env, "queues must be 1 to 64");
  std::array<uint8_t, 16> uuid;
  std::memcpy(uuid.data(), info[0].As<Napi::Uint8Array>().Data(), 16);
  std::lock_guard<std::mutex> lock(registryMutex);
  Registries& all = All();
  auto [it, added] = all.ids.emplace(std::make_pair(uuid, queues), uint32_t(all.counts.size()));
  if (added) all.counts.emplace_back(2 * queues, 0);
  return Napi::Number::New(env, it->second);
}

void TakeBackEnv(void* env) {
  std::lock_guard<std::mutex> lock(registryMutex);
  Registries& all = All();
  auto found = all.byEnv.find(static_cast<napi_env>(env));
  if (found == all.byEnv.end()) return;
  for (const auto& [id, added] : found->second)
    for (size_t i = 0; i < added.size(); ++i) all.counts[id][i] -= added[i];
  all.byEnv.erase(found);
}

Napi::Value QueueAdd(const Napi::CallbackInfo& info) {
  napi_env env = info.Env();
  std::lock_guard<std::mutex> lock(registryMutex);
  Registries& all = All();
  uint32_t id = Id(info);
  std::vector<int32_t>& counts = all.counts[id];
  if (!info[1].IsNumber() || !info[2].IsNumber() || !info[3].IsNumber())
    throw Napi::TypeError::New(env, "queue, owners and inFlight must be numbers");
  uint32_t queue = info[1].As<Napi::Number>().Uint32Value();
  if (2 * queue >= counts.size()) throw Napi::RangeError::New(env, "no such decode queue");
  int32_t owners = info[2].As<Napi::Number>().Int32Value(), inFlight = info[3].As<Napi::Number>().Int32Value();
  auto envEntry = all.byEnv.find(env);
  if (envEntry == all.byEnv.end()) {
    napi_add_env_cleanup_hook(env, TakeBackEnv, env);
    envEntry = all.byEnv.emplace(env, std::map<uint32_t, std::vector<int32_t>>()).first;
  }
  std::vector<int32_t>& added = envEntry->second[id];
  if (added.empty()) added.resize(counts.size(), 0);
  counts[2 * queue] += owners;
  counts[2 * queue + 1] += inFlight;
  added[2 * queue] += owners;
  added[2 * queue + 1] += inFlight;
  return Napi::Env(env).Undefined();
}

Napi::Value QueueCounts(const Napi::CallbackInfo& info) {
  std::lock_guard<std::mutex> lock(registryMutex);
  const std::vector<int32_t>& counts = All().counts[Id(info)];
  Napi::Int32Array out = Napi::Int32Array::New(info.Env(), counts.size());
  std::memcpy(out.Data(), counts.data(), counts.size() * sizeof(int32_t));
  return out;
}

}  // namespace

void InitDecodeQueueRegistry(Napi::Env env, Napi::Object exports) {
  exports.Set("vkVideoQueueRegistry", Napi::Function::New(env, QueueRegistry, "vkVideoQueueRegistry"));
  exports.Set("vkVideoQueueAdd", Napi::Function::New(env, QueueAdd, "vkVideoQueueAdd"));
  exports.Set("vkVideoQueueCounts", Napi::Function::New(env, QueueCounts, "vkVideoQueueCounts"));
}

}  // namespace vk
}  // namespace ocl
