/*
 * The part of NVIDIA's CUDA driver API (cuda.h) and Video Codec SDK decode API
 * (nvcuvid.h, cuviddec.h) that bench/nvdec_decode.c calls, declared here so it
 * builds without NVIDIA's SDK: both libraries are opened at run time. Values,
 * layouts and signatures follow the published headers (Video Codec SDK 12/13,
 * 64-bit Linux, where their `unsigned long` is 8 bytes); the asserts at the end
 * pin every offset the program relies on.
 */
#ifndef OPENCL_INTEROP_BENCH_NVDEC_DECLS_H
#define OPENCL_INTEROP_BENCH_NVDEC_DECLS_H

#include <stddef.h>
#include <stdint.h>

/* cuda.h */
typedef int CUresult; /* CUDA_SUCCESS = 0 */
typedef int CUdevice;
typedef struct CUctx_st* CUcontext;
typedef struct CUstream_st* CUstream;
typedef unsigned long long CUdeviceptr;
typedef struct {
  unsigned char bytes[16];
} CUuuid;

enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2 };
enum { CU_STREAM_NON_BLOCKING = 1 };
enum { CU_CTX_SCHED_BLOCKING_SYNC = 0x04 };

typedef struct {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void* srcHost;
  CUdeviceptr srcDevice;
  void* srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void* dstHost;
  CUdeviceptr dstDevice;
  void* dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
} CudaMemcpy2D;

/* cuviddec.h */
typedef void* CUvideodecoder;
typedef struct CUcontextlock_st* CUvideoctxlock;
enum { cudaVideoCodec_H264 = 4 };
enum { cudaVideoChromaFormat_420 = 1 };
enum { cudaVideoSurfaceFormat_NV12 = 0 };
enum { cudaVideoDeinterlaceMode_Weave = 0 };
enum { cudaVideoCreate_PreferCUVID = 0x04 };
enum { cuvidDecodeStatus_Success = 2, cuvidDecodeStatus_Error = 8, cuvidDecodeStatus_Error_Concealed = 9 };

typedef struct {
  short left, top, right, bottom;
} CuvidShortRect;

typedef struct {
  int eCodecType, eChromaFormat;
  unsigned int nBitDepthMinus8, reserved1[3];
  unsigned char bIsSupported, nNumNVDECs;
  unsigned short nOutputFormatMask;
  unsigned int nMaxWidth, nMaxHeight, nMaxMBCount;
  unsigned short nMinWidth, nMinHeight;
  unsigned char bIsHistogramSupported, nCounterBitDepth;
  unsigned short nMaxHistogramBins;
  unsigned int reserved3[10];
} CuvidDecodeCaps;

typedef struct {
  unsigned long ulWidth, ulHeight, ulNumDecodeSurfaces;
  int CodecType, ChromaFormat;
  unsigned long ulCreationFlags, bitDepthMinus8, ulIntraDecodeOnly, ulMaxWidth, ulMaxHeight, Reserved1;
  CuvidShortRect display_area;
  int OutputFormat, DeinterlaceMode;
  unsigned long ulTargetWidth, ulTargetHeight, ulNumOutputSurfaces;
  CUvideoctxlock vidLock;
  CuvidShortRect target_rect;
  unsigned long enableHistogram, Reserved2[4];
} CuvidDecodeCreateInfo;

/* CUVIDPICPARAMS: filled by the parser and handed back to the decoder; only
   its first fields are read here. */
typedef struct {
  int PicWidthInMbs, FrameHeightInMbs, CurrPicIdx;
} CuvidPicParamsHead;

typedef struct {
  int progressive_frame, second_field, top_field_first, unpaired_field;
  unsigned int reserved_flags, reserved_zero;
  unsigned long long raw_input_dptr;
  unsigned int raw_input_pitch, raw_input_format;
  unsigned long long raw_output_dptr;
  unsigned int raw_output_pitch, Reserved1;
  CUstream output_stream;
  unsigned int Reserved[46];
  unsigned long long* histogram_dptr;
  void* Reserved2[1];
} CuvidProcParams;

typedef struct {
  int decodeStatus;
  unsigned int reserved[31];
  void* pReserved[8];
} CuvidGetDecodeStatus;

/* nvcuvid.h */
typedef void* CUvideoparser;
enum { CUVID_PKT_ENDOFSTREAM = 0x01, CUVID_PKT_TIMESTAMP = 0x02, CUVID_PKT_ENDOFPICTURE = 0x08 };

typedef struct {
  int codec;
  unsigned int frame_rate_numerator, frame_rate_denominator;
  unsigned char progressive_sequence, bit_depth_luma_minus8, bit_depth_chroma_minus8, min_num_decode_surfaces;
  unsigned int coded_width, coded_height;
  int display_left, display_top, display_right, display_bottom;
  int chroma_format;
  unsigned int bitrate;
  int display_aspect_x, display_aspect_y;
  unsigned char video_signal_description[4];
  unsigned int seqhdr_data_length;
} CuvidVideoFormat;

typedef struct {
  int picture_index, progressive_frame, top_field_first, repeat_first_field;
  long long timestamp;
} CuvidParserDispInfo;

typedef struct {
  unsigned long flags, payload_size;
  const unsigned char* payload;
  long long timestamp;
} CuvidSourceDataPacket;

typedef int (*CuvidSequenceCallback)(void*, CuvidVideoFormat*);
typedef int (*CuvidDecodeCallback)(void*, void* /* CUVIDPICPARAMS */);
typedef int (*CuvidDisplayCallback)(void*, CuvidParserDispInfo*);

typedef struct {
  int CodecType;
  unsigned int ulMaxNumDecodeSurfaces, ulClockRate, ulErrorThreshold, ulMaxDisplayDelay;
  unsigned int flagBits; /* bAnnexb:1, bMemoryOptimize:1, reserved:30 */
  unsigned int uReserved1[4];
  void* pUserData;
  CuvidSequenceCallback pfnSequenceCallback;
  CuvidDecodeCallback pfnDecodePicture;
  CuvidDisplayCallback pfnDisplayPicture;
  void* pfnGetOperatingPoint;
  void* pfnGetSEIMsg;
  void* pvReserved2[5];
  void* pExtVideoInfo;
} CuvidParserParams;

/* The entry points, filled by dlsym: name in the library, then the type. */
#define NVDEC_CUDA_FUNCTIONS(X)                                          \
  X(cuInit, CUresult (*)(unsigned int))                                  \
  X(cuDriverGetVersion, CUresult (*)(int*))                              \
  X(cuDeviceGetCount, CUresult (*)(int*))                                \
  X(cuDeviceGet, CUresult (*)(CUdevice*, int))                           \
  X(cuDeviceGetName, CUresult (*)(char*, int, CUdevice))                 \
  X(cuDeviceGetUuid, CUresult (*)(CUuuid*, CUdevice))                    \
  X(cuDevicePrimaryCtxRetain, CUresult (*)(CUcontext*, CUdevice))        \
  X(cuDevicePrimaryCtxSetFlags_v2, CUresult (*)(CUdevice, unsigned int)) \
  X(cuDevicePrimaryCtxRelease_v2, CUresult (*)(CUdevice))                \
  X(cuCtxCreate_v2, CUresult (*)(CUcontext*, unsigned int, CUdevice))    \
  X(cuCtxDestroy_v2, CUresult (*)(CUcontext))                            \
  X(cuCtxPushCurrent_v2, CUresult (*)(CUcontext))                        \
  X(cuCtxPopCurrent_v2, CUresult (*)(CUcontext*))                        \
  X(cuStreamCreate, CUresult (*)(CUstream*, unsigned int))               \
  X(cuStreamDestroy_v2, CUresult (*)(CUstream))                          \
  X(cuStreamSynchronize, CUresult (*)(CUstream))                         \
  X(cuMemcpy2D_v2, CUresult (*)(const CudaMemcpy2D*))                    \
  X(cuGetErrorName, CUresult (*)(CUresult, const char**))

#define NVDEC_CUVID_FUNCTIONS(X)                                                                                   \
  X(cuvidGetDecoderCaps, CUresult (*)(CuvidDecodeCaps*))                                                           \
  X(cuvidCreateDecoder, CUresult (*)(CUvideodecoder*, CuvidDecodeCreateInfo*))                                     \
  X(cuvidDestroyDecoder, CUresult (*)(CUvideodecoder))                                                             \
  X(cuvidDecodePicture, CUresult (*)(CUvideodecoder, void*))                                                       \
  X(cuvidGetDecodeStatus, CUresult (*)(CUvideodecoder, int, CuvidGetDecodeStatus*))                                \
  X(cuvidMapVideoFrame64, CUresult (*)(CUvideodecoder, int, unsigned long long*, unsigned int*, CuvidProcParams*)) \
  X(cuvidUnmapVideoFrame64, CUresult (*)(CUvideodecoder, unsigned long long))                                      \
  X(cuvidCtxLockCreate, CUresult (*)(CUvideoctxlock*, CUcontext))                                                  \
  X(cuvidCtxLockDestroy, CUresult (*)(CUvideoctxlock))                                                             \
  X(cuvidCreateVideoParser, CUresult (*)(CUvideoparser*, CuvidParserParams*))                                      \
  X(cuvidParseVideoData, CUresult (*)(CUvideoparser, CuvidSourceDataPacket*))                                      \
  X(cuvidDestroyVideoParser, CUresult (*)(CUvideoparser))

/* Offsets on LP64, from the published headers. */
#if defined(__LP64__)
#define NVDEC_OFFSET(type, field, at) _Static_assert(offsetof(type, field) == (at), #type "." #field);
NVDEC_OFFSET(CudaMemcpy2D, srcMemoryType, 16)
NVDEC_OFFSET(CudaMemcpy2D, srcDevice, 32)
NVDEC_OFFSET(CudaMemcpy2D, dstHost, 80)
NVDEC_OFFSET(CudaMemcpy2D, dstPitch, 104)
NVDEC_OFFSET(CudaMemcpy2D, Height, 120)
_Static_assert(sizeof(CudaMemcpy2D) == 128, "CUDA_MEMCPY2D size");
NVDEC_OFFSET(CuvidDecodeCaps, bIsSupported, 24)
NVDEC_OFFSET(CuvidDecodeCaps, nNumNVDECs, 25)
NVDEC_OFFSET(CuvidDecodeCaps, nMaxWidth, 28)
NVDEC_OFFSET(CuvidDecodeCaps, nMaxMBCount, 36)
NVDEC_OFFSET(CuvidDecodeCaps, nMinWidth, 40)
_Static_assert(sizeof(CuvidDecodeCaps) == 88, "CUVIDDECODECAPS size");
NVDEC_OFFSET(CuvidDecodeCreateInfo, CodecType, 24)
NVDEC_OFFSET(CuvidDecodeCreateInfo, ulCreationFlags, 32)
NVDEC_OFFSET(CuvidDecodeCreateInfo, ulMaxWidth, 56)
NVDEC_OFFSET(CuvidDecodeCreateInfo, display_area, 80)
NVDEC_OFFSET(CuvidDecodeCreateInfo, OutputFormat, 88)
NVDEC_OFFSET(CuvidDecodeCreateInfo, ulTargetWidth, 96)
NVDEC_OFFSET(CuvidDecodeCreateInfo, ulNumOutputSurfaces, 112)
NVDEC_OFFSET(CuvidDecodeCreateInfo, vidLock, 120)
NVDEC_OFFSET(CuvidDecodeCreateInfo, target_rect, 128)
NVDEC_OFFSET(CuvidDecodeCreateInfo, enableHistogram, 136)
_Static_assert(sizeof(CuvidDecodeCreateInfo) == 176, "CUVIDDECODECREATEINFO size");
NVDEC_OFFSET(CuvidProcParams, raw_input_dptr, 24)
NVDEC_OFFSET(CuvidProcParams, output_stream, 56)
NVDEC_OFFSET(CuvidProcParams, histogram_dptr, 248)
_Static_assert(sizeof(CuvidProcParams) == 264, "CUVIDPROCPARAMS size");
_Static_assert(sizeof(CuvidGetDecodeStatus) == 192, "CUVIDGETDECODESTATUS size");
NVDEC_OFFSET(CuvidVideoFormat, min_num_decode_surfaces, 15)
NVDEC_OFFSET(CuvidVideoFormat, coded_width, 16)
NVDEC_OFFSET(CuvidVideoFormat, display_left, 24)
NVDEC_OFFSET(CuvidVideoFormat, chroma_format, 40)
NVDEC_OFFSET(CuvidVideoFormat, seqhdr_data_length, 60)
_Static_assert(sizeof(CuvidVideoFormat) == 64, "CUVIDEOFORMAT size");
NVDEC_OFFSET(CuvidParserDispInfo, timestamp, 16)
_Static_assert(sizeof(CuvidParserDispInfo) == 24, "CUVIDPARSERDISPINFO size");
NVDEC_OFFSET(CuvidSourceDataPacket, payload, 16)
NVDEC_OFFSET(CuvidSourceDataPacket, timestamp, 24)
_Static_assert(sizeof(CuvidSourceDataPacket) == 32, "CUVIDSOURCEDATAPACKET size");
NVDEC_OFFSET(CuvidParserParams, ulMaxDisplayDelay, 16)
NVDEC_OFFSET(CuvidParserParams, pUserData, 40)
NVDEC_OFFSET(CuvidParserParams, pfnDecodePicture, 56)
NVDEC_OFFSET(CuvidParserParams, pfnDisplayPicture, 64)
NVDEC_OFFSET(CuvidParserParams, pvReserved2, 88)
NVDEC_OFFSET(CuvidParserParams, pExtVideoInfo, 128)
_Static_assert(sizeof(CuvidParserParams) == 136, "CUVIDPARSERPARAMS size");
#undef NVDEC_OFFSET
#endif

#endif
