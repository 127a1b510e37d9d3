// What a physical device decodes (queue families with their codec
// operations, each profile's capabilities and picture formats), and devices
// made with a decode queue family beside the compute queue.
#include "video/module.h"
#include "video/video.h"

#include <cstring>
#include <string>

namespace ocl {
namespace vk {

const napi_type_tag NativeVideoDevice::kTypeTag = {0x6a1f2c94e87d4b05ULL, 0xb3c85e0172d94af6ULL};

VideoCodec ToVideoCodec(const Napi::Value& value) {
  if (value.IsUndefined()) return VideoCodec::kH264;
  std::string name = value.IsString() ? value.As<Napi::String>().Utf8Value() : "";
  if (name == "h264") return VideoCodec::kH264;
  if (name == "h265") return VideoCodec::kH265;
  throw Napi::TypeError::New(value.Env(), "codec must be 'h264' or 'h265'");
}

void VideoProfile::Set(VideoCodec videoCodec, int32_t profileIdc) {
  codec = videoCodec;
  h264 = {};
  h264.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_PROFILE_INFO_KHR;
  h264.stdProfileIdc = profileIdc;
  h264.pictureLayout = VK_VIDEO_DECODE_H264_PICTURE_LAYOUT_PROGRESSIVE_KHR;
  h265 = {};
  h265.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_PROFILE_INFO_KHR;
  h265.stdProfileIdc = profileIdc;
  profile = {};
  profile.sType = VK_STRUCTURE_TYPE_VIDEO_PROFILE_INFO_KHR;
  if (codec == VideoCodec::kH265) {
    profile.pNext = &h265;
    profile.videoCodecOperation = VK_VIDEO_CODEC_OPERATION_DECODE_H265_BIT_KHR;
  } else {
    profile.pNext = &h264;
    profile.videoCodecOperation = VK_VIDEO_CODEC_OPERATION_DECODE_H264_BIT_KHR;
  }
  profile.chromaSubsampling = VK_VIDEO_CHROMA_SUBSAMPLING_420_BIT_KHR;
  profile.lumaBitDepth = VK_VIDEO_COMPONENT_BIT_DEPTH_8_BIT_KHR;
  profile.chromaBitDepth = VK_VIDEO_COMPONENT_BIT_DEPTH_8_BIT_KHR;
  list = {};
  list.sType = VK_STRUCTURE_TYPE_VIDEO_PROFILE_LIST_INFO_KHR;
  list.profileCount = 1;
  list.pProfiles = &profile;
}

VideoInstanceApi ResolveVideoInstanceApi(Napi::Env env, const InstanceState& instance) {
  const GlobalApi& global = Global(env);
  VideoInstanceApi api;
#define OCL_VK_RESOLVE(name, ret, params) api.name = reinterpret_cast<decltype(api.name)>(global.vkGetInstanceProcAddr(instance.instance, #name));
  OCL_VK_VIDEO_INSTANCE_ENTRY_POINTS(OCL_VK_RESOLVE)
#undef OCL_VK_RESOLVE
  return api;
}

VkDeviceMemory AllocateVideoMemory(Napi::Env env, DeviceState& device, const VkMemoryRequirements& req, VkFlags required, VkFlags preferred) {
  int32_t type = device.FindMemoryType(req.memoryTypeBits, required, preferred);
  if (type < 0)
    ThrowVkError(env, VK_ERROR_OUT_OF_DEVICE_MEMORY, OCL_VK_NAME(device.fn, vkAllocateMemory),
                 "no memory type of the device fits this video resource");
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, uint32_t(type)};
  VkDeviceMemory memory = 0;
  VK_CHECK(env, device.fn, vkAllocateMemory, device.device, &allocate, nullptr, &memory);
  return memory;
}

namespace {

std::vector<VkPhysicalDevice> Physical(Napi::Env env, const InstanceState& state) {
  uint32_t count = 0;
  VK_CHECK(env, state.fn, vkEnumeratePhysicalDevices, state.instance, &count, nullptr);
  std::vector<VkPhysicalDevice> list(count);
  VkOutcome listed = VK_CALL(state.fn, vkEnumeratePhysicalDevices, state.instance, &count, list.data());
  if (listed.result != VK_INCOMPLETE) CheckVk(env, listed);
  list.resize(count);
  return list;
}

std::string Chars(const char* text, size_t max) { return std::string(text, strnlen(text, max)); }

// One profile's capabilities and picture formats, or { supported: false, result } where the driver refuses it.
Napi::Object ProfileSupport(Napi::Env env, const VideoInstanceApi& api, VkPhysicalDevice physical, VideoCodec codec, int32_t profileIdc) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("profileIdc", profileIdc);
  VideoProfile profile;
  profile.Set(codec, profileIdc);
  VkVideoDecodeH264CapabilitiesKHR h264{};
  h264.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_CAPABILITIES_KHR;
  VkVideoDecodeH265CapabilitiesKHR h265{};
  h265.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_CAPABILITIES_KHR;
  VkVideoDecodeCapabilitiesKHR decode{};
  decode.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_CAPABILITIES_KHR;
  decode.pNext = codec == VideoCodec::kH265 ? static_cast<void*>(&h265) : static_cast<void*>(&h264);
  VkVideoCapabilitiesKHR caps{};
  caps.sType = VK_STRUCTURE_TYPE_VIDEO_CAPABILITIES_KHR;
  caps.pNext = &decode;
  VkResult result = api.vkGetPhysicalDeviceVideoCapabilitiesKHR(physical, &profile.profile, &caps);
  o.Set("result", result);
  o.Set("supported", result == VK_SUCCESS);
  if (result != VK_SUCCESS) return o;
  o.Set("flags", caps.flags);
  o.Set("decodeFlags", decode.flags);
  // StdVideoH264LevelIdc or StdVideoH265LevelIdc (an index; lib/video/support.ts maps it).
  o.Set("maxLevelIdc", codec == VideoCodec::kH265 ? int32_t(h265.maxLevelIdc) : int32_t(h264.maxLevelIdc));
  o.Set("bitstreamOffsetAlignment", double(caps.minBitstreamBufferOffsetAlignment));
  o.Set("bitstreamSizeAlignment", double(caps.minBitstreamBufferSizeAlignment));
  Napi::Array granularity = Napi::Array::New(env, 2);
  granularity.Set(0u, caps.pictureAccessGranularity.width);
  granularity.Set(1u, caps.pictureAccessGranularity.height);
  o.Set("granularity", granularity);
  o.Set("minWidth", caps.minCodedExtent.width);
  o.Set("minHeight", caps.minCodedExtent.height);
  o.Set("maxWidth", caps.maxCodedExtent.width);
  o.Set("maxHeight", caps.maxCodedExtent.height);
  o.Set("maxDpbSlots", caps.maxDpbSlots);
  o.Set("maxActiveReferences", caps.maxActiveReferencePictures);
  o.Set("stdName", Chars(caps.stdHeaderVersion.extensionName, VK_MAX_EXTENSION_NAME_SIZE));
  o.Set("stdVersion", caps.stdHeaderVersion.specVersion);
  // The formats of pictures used both as DPB and output (coincide) and of DPB pictures alone.
  Napi::Array formats = Napi::Array::New(env);
  const VkFlags usages[] = {VK_IMAGE_USAGE_VIDEO_DECODE_DPB_BIT_KHR | VK_IMAGE_USAGE_VIDEO_DECODE_DST_BIT_KHR,
                            VK_IMAGE_USAGE_VIDEO_DECODE_DPB_BIT_KHR};
  for (VkFlags usage : usages) {
    VkPhysicalDeviceVideoFormatInfoKHR query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_FORMAT_INFO_KHR, &profile.list, usage};
    uint32_t count = 0;
    if (api.vkGetPhysicalDeviceVideoFormatPropertiesKHR(physical, &query, &count, nullptr) != VK_SUCCESS) continue;
    std::vector<VkVideoFormatPropertiesKHR> list(count);
    for (auto& f : list) f.sType = VK_STRUCTURE_TYPE_VIDEO_FORMAT_PROPERTIES_KHR;
    VkResult listed = api.vkGetPhysicalDeviceVideoFormatPropertiesKHR(physical, &query, &count, list.data());
    if (listed < 0) continue;
    for (uint32_t i = 0; i < count && i < list.size(); ++i) {
      Napi::Object f = Napi::Object::New(env);
      f.Set("usage", usage);
      f.Set("format", list[i].format);
      f.Set("tiling", list[i].imageTiling);
      f.Set("imageUsage", list[i].imageUsageFlags);
      f.Set("createFlags", list[i].imageCreateFlags);
      formats.Set(formats.Length(), f);
    }
  }
  o.Set("formats", formats);
  return o;
}

// vkVideoDecodeSupport(instance, index, h264Profiles: number[], h265Profiles?: number[])
//   -> { families: [{ index, flags, count, codecs }], h264: [profile support], h265: [profile support] }
Napi::Value DecodeSupport(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const InstanceRef& instance = NativeVkInstance::From(info[0], "instance");
  uint32_t index = uint32_t(ToU64(info[1], "index"));
  std::vector<VkPhysicalDevice> list = Physical(env, *instance);
  if (index >= list.size()) throw Napi::RangeError::New(env, "no physical device " + std::to_string(index));
  VkPhysicalDevice physical = list[index];
  VideoInstanceApi api = ResolveVideoInstanceApi(env, *instance);
  Napi::Object result = Napi::Object::New(env);
  Napi::Array families = Napi::Array::New(env);
  if (api.vkGetPhysicalDeviceQueueFamilyProperties2) {
    uint32_t count = 0;
    api.vkGetPhysicalDeviceQueueFamilyProperties2(physical, &count, nullptr);
    std::vector<VkQueueFamilyVideoPropertiesKHR> video(count);
    std::vector<VkQueueFamilyProperties2> props(count);
    for (uint32_t i = 0; i < count; ++i) {
      video[i] = {};
      video[i].sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_VIDEO_PROPERTIES_KHR;
      props[i] = {};
      props[i].sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2;
      props[i].pNext = &video[i];
    }
    api.vkGetPhysicalDeviceQueueFamilyProperties2(physical, &count, props.data());
    for (uint32_t i = 0; i < count && i < props.size(); ++i) {
      Napi::Object f = Napi::Object::New(env);
      f.Set("index", i);
      f.Set("flags", props[i].queueFamilyProperties.queueFlags);
      f.Set("count", props[i].queueFamilyProperties.queueCount);
      f.Set("codecs", video[i].videoCodecOperations);
      f.Set("granularity", props[i].queueFamilyProperties.minImageTransferGranularity.width);
      families.Set(families.Length(), f);
    }
  }
  result.Set("families", families);
  bool asks = api.vkGetPhysicalDeviceVideoCapabilitiesKHR && api.vkGetPhysicalDeviceVideoFormatPropertiesKHR;
  auto profilesOf = [&](const Napi::Value& idcs, VideoCodec codec) {
    Napi::Array list = Napi::Array::New(env);
    if (!asks || !idcs.IsArray()) return list;
    Napi::Array profiles = idcs.As<Napi::Array>();
    for (uint32_t i = 0; i < profiles.Length(); ++i)
      list.Set(i, ProfileSupport(env, api, physical, codec, int32_t(ToU64(profiles.Get(i), "profile"))));
    return list;
  };
  result.Set("h264", profilesOf(info[2], VideoCodec::kH264));
  result.Set("h265", profilesOf(info[3], VideoCodec::kH265));
  return result;
}

std::vector<std::string> Strings(const Napi::Value& value, const char* what) {
  if (!value.IsArray()) throw Napi::TypeError::New(value.Env(), std::string(what) + " must be an array of strings");
  Napi::Array array = value.As<Napi::Array>();
  std::vector<std::string> out;
  for (uint32_t i = 0; i < array.Length(); ++i) out.push_back(array.Get(i).ToString());
  return out;
}

struct VkPhysicalDeviceSynchronization2Features {
  VkStructureType sType;
  void* pNext;
  VkBool32 synchronization2;
};
constexpr VkStructureType kSynchronization2Features = 1000314007;

// vkVideoCreateDevice(instance, index, computeFamily, decodeFamily, decodeQueues, extensions, ycbcr, memoryBits, semaphoreBits,
//   decodeTransfers) -> [NativeVkDevice, NativeVideoDevice]
Napi::Value CreateVideoDevice(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const InstanceRef& instance = NativeVkInstance::From(info[0], "instance");
  uint32_t index = uint32_t(ToU64(info[1], "index"));
  uint32_t computeFamily = uint32_t(ToU64(info[2], "computeFamily"));
  uint32_t decodeFamily = uint32_t(ToU64(info[3], "decodeFamily"));
  uint32_t decodeCount = uint32_t(ToU64(info[4], "decodeQueues"));
  std::vector<std::string> extensions = Strings(info[5], "extensions");
  bool ycbcr = info[6].ToBoolean();
  if (decodeCount == 0 || decodeCount > 64) throw Napi::RangeError::New(env, "decodeQueues must be 1 to 64");
  if (computeFamily == decodeFamily) throw Napi::RangeError::New(env, "the compute and decode queue families must differ");
  std::vector<VkPhysicalDevice> list = Physical(env, *instance);
  if (index >= list.size()) throw Napi::RangeError::New(env, "no physical device " + std::to_string(index));
  VkPhysicalDevice physical = list[index];
  std::vector<float> priorities(decodeCount, 1.0f);
  VkDeviceQueueCreateInfo queues[2] = {
      {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, computeFamily, 1, priorities.data()},
      {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, decodeFamily, decodeCount, priorities.data()},
  };
  std::vector<const char*> names;
  for (const std::string& e : extensions) names.push_back(e.c_str());
  VkPhysicalDeviceSynchronization2Features sync2{kSynchronization2Features, nullptr, 1};
  VkPhysicalDeviceSamplerYcbcrConversionFeatures ycbcrFeature{};
  ycbcrFeature.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES;
  ycbcrFeature.samplerYcbcrConversion = 1;
  ycbcrFeature.pNext = &sync2;
  VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                            ycbcr ? static_cast<const void*>(&ycbcrFeature) : &sync2,
                            0,
                            2,
                            queues,
                            0,
                            nullptr,
                            uint32_t(names.size()),
                            names.data(),
                            nullptr};
  VkDevice device = nullptr;
  VK_CHECK(env, instance->fn, vkCreateDevice, physical, &create, nullptr, &device);
  DeviceRef state = AdoptDevice(env, instance, physical, device, computeFamily, VkFlags(ToU64(info[7], "memoryHandleTypes")),
                                VkFlags(ToU64(info[8], "semaphoreHandleTypes")));

  auto video = std::make_shared<VideoDeviceState>();
  video->device = state;
  video->ifn = ResolveVideoInstanceApi(env, *instance);
  video->decodeFamily = decodeFamily;
  video->decodeTransfers = info[9].ToBoolean();
#define OCL_VK_RESOLVE(name, ret, params) \
  video->fn.name = reinterpret_cast<decltype(video->fn.name)>(instance->fn.vkGetDeviceProcAddr(device, #name));
  OCL_VK_VIDEO_DEVICE_ENTRY_POINTS(OCL_VK_RESOLVE)
#undef OCL_VK_RESOLVE
#define OCL_VK_REQUIRE(name, ret, params) \
  if (!video->fn.name) ThrowVkError(env, VK_ERROR_EXTENSION_NOT_PRESENT, OCL_VK_NAME(instance->fn, vkGetDeviceProcAddr), "the device has no " #name);
  OCL_VK_VIDEO_DEVICE_ENTRY_POINTS(OCL_VK_REQUIRE)
#undef OCL_VK_REQUIRE
  video->decodeQueues.resize(decodeCount);
  for (uint32_t i = 0; i < decodeCount; ++i) state->fn.vkGetDeviceQueue(device, decodeFamily, i, &video->decodeQueues[i]);
  Napi::Array pair = Napi::Array::New(env, 2);
  pair.Set(0u, NativeVkDevice::Wrap(env, state));
  pair.Set(1u, NativeVideoDevice::Wrap(env, std::move(video)));
  return pair;
}

}  // namespace

// createDecoder(queueIndex, profileIdc, ring, codec?: 'h264' | 'h265') -> NativeVideoDecoder
Napi::Value NativeVideoDevice::CreateDecoder(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const VideoDeviceRef& video = Live(env);
  uint32_t queueIndex = uint32_t(ToU64(info[0], "queueIndex"));
  if (queueIndex >= video->decodeQueues.size()) throw Napi::RangeError::New(env, "no decode queue " + std::to_string(queueIndex));
  int32_t profileIdc = int32_t(ToU64(info[1], "profileIdc"));
  uint32_t ring = uint32_t(ToU64(info[2], "ring"));
  if (ring == 0 || ring > 64) throw Napi::RangeError::New(env, "ring must be 1 to 64");
  VideoCodec codec = ToVideoCodec(info[3]);
  return MakeDecoder(env, video, queueIndex, codec, profileIdc, ring);
}

void NativeVideoDevice::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports, {InstanceMethod("createDecoder", &NativeVideoDevice::CreateDecoder)});
}

void InitVideoDevice(Napi::Env env, Napi::Object exports) {
  NativeVideoDevice::Init(env, exports);
  exports.Set("vkVideoDecodeSupport", Napi::Function::New(env, DecodeSupport, "vkVideoDecodeSupport"));
  exports.Set("vkVideoCreateDevice", Napi::Function::New(env, CreateVideoDevice, "vkVideoCreateDevice"));
}

}  // namespace vk

void InitVideo(Napi::Env env, Napi::Object exports) {
  vk::InitVideoDevice(env, exports);
  vk::InitVideoDecoder(env, exports);
  vk::InitDecodeQueueRegistry(env, exports);
}

}  // namespace ocl
