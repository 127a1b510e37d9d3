// NativeVideoDecoder: a video decoder's JavaScript methods (lib/video/
// decoder.ts calls them), their arguments read and checked against the
// decoder's session and the device's limits. What a decoder holds is in
// decoder_state.h; one frame's decode is decode_frame.cc's.
#include <algorithm>
#include <string>

#include "video/decoder_state.h"

namespace ocl {
namespace vk {

const napi_type_tag NativeVideoDecoder::kTypeTag = {0x1d7e4a93c2f05b68ULL, 0x8f2b61d4e0a7c395ULL};

// configure(width, height, slots, maxActiveReferences, format): a new session and DPB (the frames in flight keep the old ones).
Napi::Value NativeVideoDecoder::Configure(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<DecoderState>& state = Live(env);
  uint32_t width = uint32_t(ToU64(info[0], "width"));
  uint32_t height = uint32_t(ToU64(info[1], "height"));
  uint32_t slots = uint32_t(ToU64(info[2], "slots"));
  uint32_t active = uint32_t(ToU64(info[3], "maxActiveReferences"));
  VkFormat format = VkFormat(ToU64(info[4], "format"));
  const VkVideoCapabilitiesKHR& caps = state->caps;
  if (width < caps.minCodedExtent.width || height < caps.minCodedExtent.height || width > caps.maxCodedExtent.width ||
      height > caps.maxCodedExtent.height)
    throw Napi::RangeError::New(env, "the coded size is outside the device's range");
  if (slots == 0 || slots > caps.maxDpbSlots || active > caps.maxActiveReferencePictures)
    throw Napi::RangeError::New(env, "slots or maxActiveReferences past the device's limits");
  state->session = MakeSession(env, *state, width, height, slots, active, format);
  state->params.reset();
  return env.Undefined();
}

// setParameters(sps: object[], pps: object[], vps?: object[]): new session parameters holding exactly these sets (vps:
// H.265's).
Napi::Value NativeVideoDecoder::SetParameters(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<DecoderState>& state = Live(env);
  if (!state->session) throw Napi::Error::New(env, "the decoder has no session yet (configure first)");
  auto params = std::make_shared<ParamsState>();
  params->session = state->session;
  VkVideoSessionParametersCreateInfoKHR create{VK_STRUCTURE_TYPE_VIDEO_SESSION_PARAMETERS_CREATE_INFO_KHR, nullptr, 0, 0, state->session->session};
  auto most = [](size_t n) { return uint32_t(std::max<size_t>(n, 1)); };
  if (state->profile.codec == VideoCodec::kH265) {
    H265ParameterSets sets;
    ReadH265ParameterSets(env, info[2], info[0], info[1], sets);
    VkVideoDecodeH265SessionParametersAddInfoKHR add{VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_SESSION_PARAMETERS_ADD_INFO_KHR,
                                                     nullptr,
                                                     uint32_t(sets.vps.size()),
                                                     sets.vps.data(),
                                                     uint32_t(sets.sps.size()),
                                                     sets.sps.data(),
                                                     uint32_t(sets.pps.size()),
                                                     sets.pps.data()};
    VkVideoDecodeH265SessionParametersCreateInfoKHR h265{VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_SESSION_PARAMETERS_CREATE_INFO_KHR,
                                                         nullptr,
                                                         most(sets.vps.size()),
                                                         most(sets.sps.size()),
                                                         most(sets.pps.size()),
                                                         &add};
    create.pNext = &h265;
    VK_CHECK(env, state->video->fn, vkCreateVideoSessionParametersKHR, state->video->device->device, &create, nullptr, &params->params);
  } else {
    H264ParameterSets sets;
    ReadH264ParameterSets(env, info[0], info[1], sets);
    VkVideoDecodeH264SessionParametersAddInfoKHR add{VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_SESSION_PARAMETERS_ADD_INFO_KHR,
                                                     nullptr,
                                                     uint32_t(sets.sps.size()),
                                                     sets.sps.data(),
                                                     uint32_t(sets.pps.size()),
                                                     sets.pps.data()};
    VkVideoDecodeH264SessionParametersCreateInfoKHR h264{VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_SESSION_PARAMETERS_CREATE_INFO_KHR, nullptr,
                                                         most(sets.sps.size()), most(sets.pps.size()), &add};
    create.pNext = &h264;
    VK_CHECK(env, state->video->fn, vkCreateVideoSessionParametersKHR, state->video->device->device, &create, nullptr, &params->params);
  }
  state->params = std::move(params);
  return env.Undefined();
}

namespace {

void Semaphores(const Napi::Value& value, const char* what, std::vector<VkSemaphore>& out, std::vector<std::shared_ptr<void>>& holds,
                const DeviceRef& device) {
  if (value.IsUndefined() || value.IsNull()) return;
  if (!value.IsArray()) throw Napi::TypeError::New(value.Env(), std::string(what) + " must be an array of NativeVkSemaphore");
  Napi::Array array = value.As<Napi::Array>();
  if (array.Length() > 8) throw Napi::RangeError::New(value.Env(), std::string(what) + " holds more than 8 semaphores");
  for (uint32_t i = 0; i < array.Length(); ++i) {
    const std::shared_ptr<SemaphoreState>& s = NativeVkSemaphore::From(array.Get(i), what);
    if (s->device != device) throw Napi::TypeError::New(value.Env(), std::string(what) + " holds a semaphore of another device");
    out.push_back(s->semaphore);
    holds.push_back(s);
  }
}

}  // namespace

// decode(ring, desc: Int32Array, sliceOffsets: Uint32Array, data: Uint8Array, output: NativeVkBuffer,
//        layout: [yOffset, yPitch, uvOffset, uvPitch], wait?: NativeVkSemaphore[], signal?: NativeVkSemaphore[], queue?: number)
//   -> Promise<void>
Napi::Value NativeVideoDecoder::Decode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<DecoderState>& state = Live(env);
  DecoderState& s = *state;
  if (s.broken) throw Napi::Error::New(env, "the decoder lost track of a frame in flight; make a new one");
  if (!s.session || !s.params) throw Napi::Error::New(env, "the decoder has no session parameters yet");
  const SessionState& session = *s.session;
  const VideoDeviceState& video = *s.video;
  uint32_t ringIndex = uint32_t(ToU64(info[0], "ring"));
  if (ringIndex >= s.ring.size()) throw Napi::RangeError::New(env, "no ring slot " + std::to_string(ringIndex));
  if (s.ring[ringIndex].busy) throw Napi::Error::New(env, "ring slot " + std::to_string(ringIndex) + " is still in flight");
  if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array)
    throw Napi::TypeError::New(env, "desc must be an Int32Array");
  Napi::Int32Array descArray = info[1].As<Napi::Int32Array>();
  const int32_t* desc = descArray.Data();
  size_t descLength = descArray.ElementLength();
  if (descLength < kHeader) throw Napi::RangeError::New(env, "desc is too short");
  uint32_t refCount = uint32_t(desc[kRefCount]);
  if (refCount > kMaxRefs || refCount > s.caps.maxActiveReferencePictures || descLength < kHeader + refCount * kRefInts)
    throw Napi::RangeError::New(env, "desc holds too many references");
  if (!info[2].IsTypedArray() || info[2].As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array)
    throw Napi::TypeError::New(env, "sliceOffsets must be a Uint32Array");
  Napi::Uint32Array sliceArray = info[2].As<Napi::Uint32Array>();
  HostView data = ToHostView(info[3], "data");
  if (data.length == 0 || sliceArray.ElementLength() == 0) throw Napi::RangeError::New(env, "a picture needs data and at least one slice");
  for (size_t i = 0; i < sliceArray.ElementLength(); ++i)
    if (sliceArray[i] >= data.length) throw Napi::RangeError::New(env, "a slice offset is past the data");
  const std::shared_ptr<BufferState>& output = NativeVkBuffer::From(info[4], "output");
  if (output->device != video.device) throw Napi::TypeError::New(env, "output belongs to another device");
  if (!info[5].IsArray()) throw Napi::TypeError::New(env, "layout must be an array");
  Napi::Array layoutArray = info[5].As<Napi::Array>();
  VkDeviceSize yOffset = ToU64(layoutArray.Get(0u), "yOffset"), yPitch = ToU64(layoutArray.Get(1u), "yPitch");
  VkDeviceSize uvOffset = ToU64(layoutArray.Get(2u), "uvOffset"), uvPitch = ToU64(layoutArray.Get(3u), "uvPitch");
  uint32_t setupSlot = DpbSlot(env, session, desc[kSetupSlot]);
  int32_t cropX = desc[kCropX], cropY = desc[kCropY], cropW = desc[kCropWidth], cropH = desc[kCropHeight];
  if (cropX < 0 || cropY < 0 || cropW <= 0 || cropH <= 0 || (cropX | cropY | cropW | cropH) & 1 || uint32_t(cropX + cropW) > session.width ||
      uint32_t(cropY + cropH) > session.height)
    throw Napi::RangeError::New(env, "the crop rectangle is outside the coded picture or odd");
  if (yPitch < uint32_t(cropW) || uvPitch < uint32_t(cropW) || yOffset % 4 || uvOffset % 4 || yPitch % 2 || uvPitch % 2 ||
      yOffset + yPitch * (cropH - 1) + cropW > output->size || uvOffset + uvPitch * (cropH / 2 - 1) + cropW > output->size)
    throw Napi::RangeError::New(env, "the output layout does not fit the output buffer");

  std::vector<std::shared_ptr<void>> holds{state, s.session, s.params, output};
  std::vector<VkSemaphore> wait, signal;
  Semaphores(info[6], "wait", wait, holds, video.device);
  Semaphores(info[7], "signal", signal, holds, video.device);
  uint32_t queueIndex = s.queueIndex;
  if (info.Length() > 8 && !info[8].IsUndefined()) {
    queueIndex = uint32_t(ToU64(info[8], "queue"));
    if (queueIndex >= video.decodeQueues.size()) throw Napi::RangeError::New(env, "no decode queue " + std::to_string(queueIndex));
  }
  // Nothing orders a frame after the decoder's frames on another queue (lib/video/decode-queues.ts moves a decoder
  // only once they are done).
  if (s.lastQueue >= 0 && int64_t(queueIndex) != s.lastQueue && !s.inFlight.empty())
    throw Napi::Error::New(env, "a frame may go to another decode queue only once the decoder's frames in flight are done");

  DecodeRequest request;
  request.ring = ringIndex;
  request.desc = desc;
  request.descLength = descLength;
  request.refCount = refCount;
  request.setupSlot = setupSlot;
  request.sliceOffsets = sliceArray.Data();
  request.sliceCount = sliceArray.ElementLength();
  request.data = data;
  request.output = output.get();
  request.yOffset = yOffset;
  request.yPitch = yPitch;
  request.uvOffset = uvOffset;
  request.uvPitch = uvPitch;
  request.cropX = cropX;
  request.cropY = cropY;
  request.cropW = cropW;
  request.cropH = cropH;
  request.wait = std::move(wait);
  request.signal = std::move(signal);
  request.holds = std::move(holds);
  request.queueIndex = queueIndex;
  return DecodeFrame(env, s, request);
}

// info() -> { queueIndex, decoded, width, height, slots, inFlight, ring }
Napi::Value NativeVideoDecoder::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DecoderState& s = *Live(env);
  Napi::Object o = Napi::Object::New(env);
  o.Set("queueIndex", s.queueIndex);
  o.Set("lastQueue", double(s.lastQueue));
  o.Set("decoded", double(s.decoded));
  o.Set("width", s.session ? s.session->width : 0);
  o.Set("height", s.session ? s.session->height : 0);
  o.Set("slots", s.session ? s.session->slots : 0);
  uint32_t busy = 0;
  for (const RingSlot& r : s.ring) busy += r.busy ? 1 : 0;
  o.Set("inFlight", busy);
  o.Set("ring", uint32_t(s.ring.size()));
  o.Set("broken", s.broken);
  return o;
}

void NativeVideoDecoder::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports,
           {InstanceMethod("configure", &NativeVideoDecoder::Configure), InstanceMethod("setParameters", &NativeVideoDecoder::SetParameters),
            InstanceMethod("decode", &NativeVideoDecoder::Decode), InstanceMethod("info", &NativeVideoDecoder::Info)});
}

void InitVideoDecoder(Napi::Env env, Napi::Object exports) { NativeVideoDecoder::Init(env, exports); }

}  // namespace vk
}  // namespace ocl
