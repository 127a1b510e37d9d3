/*
 * nvdec_decode_c: H.264 decode through NVIDIA's own decode API (NVDEC, through
 * libnvcuvid), the baseline bench/video-decode.mjs measures the package's
 * Vulkan Video decoder against. libcuda.so.1 and libnvcuvid.so.1 are opened at
 * run time (bench/nvdec_decls.h declares what is used), so it builds anywhere
 * and, where they are missing, ends with exit status 2 and says so.
 *
 * What it does, as FFmpeg's h264_cuvid does: the whole Annex-B file is read
 * into memory and split into access units before timing; each stream has a
 * parser (cuvidCreateVideoParser) fed one access unit per packet, whose
 * sequence callback creates the decoder once, whose decode callback calls
 * cuvidDecodePicture and whose display callback, in display order, maps the
 * frame (cuvidMapVideoFrame64: NV12, cropped, pitch-linear CUDA memory, the
 * equivalent of a frame in exportable device memory), waits for the map's
 * copy on the stream's CUDA stream, and unmaps it. N streams are N threads,
 * each with its own parser and decoder and CUDA stream, decoding the whole
 * file at once; one untimed pass first creates the decoders.
 *
 * The runs bench/video-decode.mjs makes (streams from bench/make-video-streams.sh;
 * on a machine without cmake-build: cc -std=c11 -O2 bench/nvdec_decode.c -ldl -lpthread):
 *   nvdec_decode_c .cache/video-streams/1080p.h264 --json --streams 1,2,4,8 --repeat 3
 *   nvdec_decode_c .cache/video-streams/4k.h264 --json --streams 1,2,4,8 --repeat 3
 *   nvdec_decode_c .cache/video-streams/short.h264 --json --md5 --md5-compare .cache/video-streams/short.framemd5
 *
 * Usage (cmake-build/bench/nvdec_decode_c):
 *   nvdec_decode_c FILE.h264 [--streams 1,2,4,8] [--repeat 5] [--json]
 *                  [--md5] [--md5-compare FILE.framemd5] [--device 0]
 *                  [--context shared|own] [--surfaces N] [--display-delay 4]
 *                  [--end-of-picture] [--sync auto|blocking]
 *   --streams     decoders at once, each decoding the whole file; a list runs
 *                 each count in turn (fresh decoders), one line each
 *   --repeat      timed passes per count (median reported); default 5
 *   --md5         one stream, one pass: copies each frame (cropped NV12: Y rows
 *                 then interleaved UV rows) to the host and prints its MD5, as
 *                 `ffmpeg -i FILE -pix_fmt nv12 -f framemd5 -` does; never timed
 *   --md5-compare with --md5, compares with that framemd5 file and reports
 *                 md5_mismatches (exit status 1 when any frame differs)
 *   --context     shared: every stream on the device's primary context
 *                 (default); own: a context per stream
 *   --surfaces    decode surfaces (default: the parser's minimum + display
 *                 delay + 1, at most 32); --display-delay: the parser's
 *                 ulMaxDisplayDelay (default 4, FFmpeg's); --end-of-picture:
 *                 packets marked CUVID_PKT_ENDOFPICTURE
 *   --sync        how CUDA waits (for the map's copy): auto, CUDA's default
 *                 (spins while there are fewer contexts than cores), or
 *                 blocking (CU_CTX_SCHED_BLOCKING_SYNC, as FFmpeg's CUDA
 *                 device context asks: less CPU time per frame)
 *
 * Output with --json, one line per stream count (fields in this order):
 *   {"bench":"nvdec_decode","file","device","uuid","driver_version","nvdecs",
 *    "width","height","coded_width","coded_height","access_units","streams",
 *    "context","sync","repeats","frames_per_stream","frames","seconds","fps",
 *    "aggregate_fps","aggregate_fps_runs":[...],"slowest_stream_fps",
 *    "cpu_us_per_frame","decode_surfaces","min_decode_surfaces",
 *    "display_delay","end_of_picture"}
 *   seconds: median over the timed passes of the wall time from the start of
 *   all streams to the end of the last; frames: all streams' frames in a pass;
 *   aggregate_fps = frames / seconds; fps = aggregate_fps / streams;
 *   cpu_us_per_frame: the process's CPU time (all its threads, the driver's
 *   too) over the timed passes / their frames; nvdecs: the decode engines
 *   cuvidGetDecoderCaps reports for H.264 4:2:0 8-bit.
 * With --md5 --json: {"frame":N,"md5":"hex"} per frame in display order, then
 *   {"bench":"nvdec_decode","md5_frames","md5_reference_frames",
 *    "md5_mismatches","first_mismatch","decode_errors",...the device fields}.
 * On failure: {"bench":"nvdec_decode","available":false|true,"error":"..."}
 *   (available false: no NVIDIA driver libraries or no CUDA device; exit 2).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvdec_decls.h"
#include "nvdec_md5.h"

#define PROGRAM "nvdec_decode"
enum { kMaxStreams = 64, kMaxPasses = 100, kMaxSurfaces = 32 };

#define AS_MEMBER(name, type) __typeof__(type) name;
static struct { NVDEC_CUDA_FUNCTIONS(AS_MEMBER) } cu;
static struct { NVDEC_CUVID_FUNCTIONS(AS_MEMBER) } cuvid;

static struct {
  const char* file;
  int streams[kMaxStreams], stream_counts, repeat, md5, json, device, own_context, surfaces, display_delay, eop, blocking_sync;
  const char* md5_compare;
} opt = {.repeat = 5, .display_delay = 4};

static void json_string(const char* text) {
  putchar('"');
  for (; *text; text++) {
    unsigned char c = (unsigned char)*text;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}

/* Ends the program from any thread, once; status 2: NVDEC is not available. */
static void fail(int status, const char* format, ...) {
  static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&once);
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  fprintf(stderr, PROGRAM ": %s\n", message);
  if (opt.json) {
    printf("{\"bench\":\"nvdec_decode\",\"available\":%s,\"error\":", status == 2 ? "false" : "true");
    json_string(message);
    printf("}\n");
  }
  fflush(stdout);
  fflush(stderr);
  _exit(status);
}

static void check(CUresult result, const char* what) {
  if (result == 0) return;
  const char* name = NULL;
  if (!cu.cuGetErrorName || cu.cuGetErrorName(result, &name) != 0) name = "unknown";
  fail(1, "%s failed: %s (%d)", what, name, result);
}
#define CHECK(call) check((call), #call)

/* Opens libcuda and libnvcuvid and finds every entry point, or ends the
   program (status 2) naming what is missing. */
static void* symbol(void* library, const char* library_name, const char* name) {
  void* found = dlsym(library, name);
  if (!found) fail(2, "%s has no %s (an NVIDIA driver older than the Video Codec SDK 12 API?)", library_name, name);
  return found;
}
#define FIND_CUDA(name, type) *(void**)&cu.name = symbol(cuda, "libcuda.so.1", #name);
#define FIND_CUVID(name, type) *(void**)&cuvid.name = symbol(nvcuvid, "libnvcuvid.so.1", #name);

static void load_libraries(void) {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  char cuda_error[256] = "";
  if (!cuda) snprintf(cuda_error, sizeof cuda_error, "%s", dlerror());
  void* nvcuvid = dlopen("libnvcuvid.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cuda || !nvcuvid)
    fail(2,
         "cannot load %s%s%s (%s%s%s): NVDEC needs NVIDIA's driver, and in a container its video capability "
         "(NVIDIA_DRIVER_CAPABILITIES with video)",
         cuda ? "" : "libcuda.so.1", !cuda && !nvcuvid ? " and " : "", nvcuvid ? "" : "libnvcuvid.so.1", cuda_error, !cuda && !nvcuvid ? "; " : "",
         nvcuvid ? "" : dlerror());
  NVDEC_CUDA_FUNCTIONS(FIND_CUDA)
  NVDEC_CUVID_FUNCTIONS(FIND_CUVID)
}

static double now_s(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The file, and where each access unit starts (units + 1 offsets). */
static unsigned char* bytes;
static size_t byte_count, *unit_at, unit_count;

static void read_file(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) fail(1, "cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (size <= 0) fail(1, "%s is empty", path);
  bytes = malloc((size_t)size);
  if (!bytes || fread(bytes, 1, (size_t)size, f) != (size_t)size) fail(1, "cannot read %s", path);
  fclose(f);
  byte_count = (size_t)size;
}

/* Splits at access unit starts (H.264 7.4.1.2.3): after a picture's slices, an
   AUD, SPS, PPS, SEI or NAL type 14-18, or a slice with first_mb_in_slice 0
   (its ue(v) starts with a 1 bit), starts the next unit. */
static void split_access_units(void) {
  unit_at = malloc(sizeof(size_t) * (byte_count / 3 + 2));
  int have_slice = 0;
  for (size_t i = 0; i + 3 < byte_count; i++) {
    if (bytes[i] != 0 || bytes[i + 1] != 0 || bytes[i + 2] != 1) continue;
    size_t start = i > 0 && bytes[i - 1] == 0 ? i - 1 : i;
    int type = bytes[i + 3] & 0x1f;
    int slice = type == 1 || type == 5;
    int first_slice = slice && i + 4 < byte_count && (bytes[i + 4] & 0x80);
    int opens = (type >= 6 && type <= 9) || (type >= 14 && type <= 18) || first_slice;
    if (unit_count == 0 || (have_slice && opens)) {
      unit_at[unit_count] = unit_count == 0 ? 0 : start;
      unit_count++;
      have_slice = 0;
    }
    if (slice) have_slice = 1;
    i += 2;
  }
  if (unit_count == 0) fail(1, "%s holds no H.264 start codes (an Annex-B .h264 file is expected)", opt.file);
  unit_at[unit_count] = byte_count;
}

typedef struct {
  int index;
  CUcontext context;
  CUvideoctxlock lock;
  CUstream cuda_stream;
  CUvideodecoder decoder;
  CuvidVideoFormat format;
  int surfaces;
  unsigned width, height, frames, decode_errors;
  double seconds;
  Md5List md5s; /* --md5 only */
  unsigned char* host;
} Stream;

static CUdevice device;
static CuvidDecodeCaps caps;
static pthread_barrier_t pass_start, pass_end;

static int on_sequence(void* user, CuvidVideoFormat* f) {
  Stream* s = user;
  if (s->decoder) {
    if (f->coded_width != s->format.coded_width || f->coded_height != s->format.coded_height || f->display_right - f->display_left != (int)s->width ||
        f->display_bottom - f->display_top != (int)s->height)
      fail(1, "the stream changes size midway (%ux%u to %ux%u); this bench decodes one size", s->format.coded_width, s->format.coded_height,
           f->coded_width, f->coded_height);
    return s->surfaces;
  }
  if (f->codec != cudaVideoCodec_H264) fail(1, "the parser found codec %d, not H.264", f->codec);
  if (f->chroma_format != cudaVideoChromaFormat_420 || f->bit_depth_luma_minus8 || f->bit_depth_chroma_minus8)
    fail(1, "unsupported stream: chroma format %d, luma bit depth %d (4:2:0 8-bit expected)", f->chroma_format, f->bit_depth_luma_minus8 + 8);
  if (!f->progressive_sequence) fail(1, "the stream is interlaced; this bench decodes progressive frames");
  if (f->coded_width > caps.nMaxWidth || f->coded_height > caps.nMaxHeight)
    fail(1, "%ux%u is past NVDEC's H.264 limit %ux%u", f->coded_width, f->coded_height, caps.nMaxWidth, caps.nMaxHeight);
  s->format = *f;
  s->width = (unsigned)(f->display_right - f->display_left);
  s->height = (unsigned)(f->display_bottom - f->display_top);
  int surfaces = opt.surfaces ? opt.surfaces : f->min_num_decode_surfaces + opt.display_delay + 1;
  if (surfaces < f->min_num_decode_surfaces) surfaces = f->min_num_decode_surfaces;
  s->surfaces = surfaces > kMaxSurfaces ? kMaxSurfaces : surfaces;
  CuvidDecodeCreateInfo info = {
      .ulWidth = f->coded_width,
      .ulHeight = f->coded_height,
      .ulNumDecodeSurfaces = (unsigned long)s->surfaces,
      .CodecType = cudaVideoCodec_H264,
      .ChromaFormat = cudaVideoChromaFormat_420,
      .ulCreationFlags = cudaVideoCreate_PreferCUVID,
      .ulMaxWidth = f->coded_width,
      .ulMaxHeight = f->coded_height,
      .display_area = {(short)f->display_left, (short)f->display_top, (short)f->display_right, (short)f->display_bottom},
      .OutputFormat = cudaVideoSurfaceFormat_NV12,
      .DeinterlaceMode = cudaVideoDeinterlaceMode_Weave,
      .ulTargetWidth = s->width,
      .ulTargetHeight = s->height,
      .ulNumOutputSurfaces = 2,
      .vidLock = s->lock,
  };
  CHECK(cuvid.cuvidCreateDecoder(&s->decoder, &info));
  return s->surfaces;
}

static int on_decode(void* user, void* picture) {
  Stream* s = user;
  int index = ((CuvidPicParamsHead*)picture)->CurrPicIdx;
  if (index < 0 || index >= s->surfaces) fail(1, "the parser chose surface %d of %d", index, s->surfaces);
  CHECK(cuvid.cuvidDecodePicture(s->decoder, picture));
  return 1;
}

static void copy_plane(CUdeviceptr from, unsigned pitch, unsigned char* to, unsigned width, unsigned rows) {
  CudaMemcpy2D copy = {.srcMemoryType = CU_MEMORYTYPE_DEVICE,
                       .srcDevice = from,
                       .srcPitch = pitch,
                       .dstMemoryType = CU_MEMORYTYPE_HOST,
                       .dstHost = to,
                       .dstPitch = width,
                       .WidthInBytes = width,
                       .Height = rows};
  CHECK(cu.cuMemcpy2D_v2(&copy));
}

static int on_display(void* user, CuvidParserDispInfo* shown) {
  Stream* s = user;
  if (!shown) return 1;
  if (opt.md5) {
    CuvidGetDecodeStatus status = {0};
    if (cuvid.cuvidGetDecodeStatus(s->decoder, shown->picture_index, &status) == 0 &&
        (status.decodeStatus == cuvidDecodeStatus_Error || status.decodeStatus == cuvidDecodeStatus_Error_Concealed))
      s->decode_errors++;
  }
  CuvidProcParams params = {
      .progressive_frame = shown->progressive_frame, .top_field_first = shown->top_field_first, .output_stream = s->cuda_stream};
  unsigned long long frame = 0;
  unsigned pitch = 0;
  CHECK(cuvid.cuvidMapVideoFrame64(s->decoder, shown->picture_index, &frame, &pitch, &params));
  CHECK(cu.cuStreamSynchronize(s->cuda_stream));
  if (opt.md5) {
    unsigned chroma_width = (s->width + 1) & ~1u, chroma_rows = (s->height + 1) / 2;
    size_t luma = (size_t)s->width * s->height, size = luma + (size_t)chroma_width * chroma_rows;
    if (!s->host && !(s->host = malloc(size))) fail(1, "out of host memory");
    copy_plane(frame, pitch, s->host, s->width, s->height);
    copy_plane(frame + (unsigned long long)pitch * ((s->height + 1) & ~1u), pitch, s->host + luma, chroma_width, chroma_rows);
    md5_list_add(&s->md5s, s->host, size);
  }
  CHECK(cuvid.cuvidUnmapVideoFrame64(s->decoder, frame));
  s->frames++;
  return 1;
}

/* One pass: a fresh parser is fed the whole file, then the end of stream. */
static void decode_pass(Stream* s) {
  CuvidParserParams params = {
      .CodecType = cudaVideoCodec_H264,
      .ulMaxNumDecodeSurfaces = (unsigned)(s->surfaces ? s->surfaces : 1),
      .ulMaxDisplayDelay = (unsigned)opt.display_delay,
      .pUserData = s,
      .pfnSequenceCallback = on_sequence,
      .pfnDecodePicture = on_decode,
      .pfnDisplayPicture = on_display,
  };
  CUvideoparser parser = NULL;
  CHECK(cuvid.cuvidCreateVideoParser(&parser, &params));
  s->frames = 0;
  for (size_t u = 0; u < unit_count; u++) {
    CuvidSourceDataPacket packet = {
        .flags = opt.eop ? CUVID_PKT_ENDOFPICTURE : 0, .payload_size = unit_at[u + 1] - unit_at[u], .payload = bytes + unit_at[u]};
    CHECK(cuvid.cuvidParseVideoData(parser, &packet));
  }
  CuvidSourceDataPacket end = {.flags = CUVID_PKT_ENDOFSTREAM};
  CHECK(cuvid.cuvidParseVideoData(parser, &end));
  CHECK(cuvid.cuvidDestroyVideoParser(parser));
}

static int pass_count(void) { return opt.md5 ? 1 : opt.repeat + 1; }

static void* stream_main(void* user) {
  Stream* s = user;
  CHECK(cu.cuCtxPushCurrent_v2(s->context));
  CHECK(cuvid.cuvidCtxLockCreate(&s->lock, s->context));
  CHECK(cu.cuStreamCreate(&s->cuda_stream, CU_STREAM_NON_BLOCKING));
  for (int pass = 0; pass < pass_count(); pass++) {
    pthread_barrier_wait(&pass_start);
    double begin = now_s(CLOCK_MONOTONIC);
    decode_pass(s);
    s->seconds = now_s(CLOCK_MONOTONIC) - begin;
    pthread_barrier_wait(&pass_end);
  }
  if (s->decoder) CHECK(cuvid.cuvidDestroyDecoder(s->decoder));
  CHECK(cu.cuStreamDestroy_v2(s->cuda_stream));
  CHECK(cuvid.cuvidCtxLockDestroy(s->lock));
  CUcontext popped;
  CHECK(cu.cuCtxPopCurrent_v2(&popped));
  return NULL;
}

static char device_name[256], device_uuid[40];
static int driver_version;
static CUcontext primary;

static void print_device_fields(void) {
  printf("\"file\":");
  json_string(opt.file);
  printf(",\"device\":");
  json_string(device_name);
  printf(",\"uuid\":\"%s\",\"driver_version\":%d,\"nvdecs\":%u", device_uuid, driver_version, caps.nNumNVDECs);
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Runs `count` streams for every pass and prints their line. */
static void run_streams(int count) {
  Stream* streams = calloc((size_t)count, sizeof(Stream));
  pthread_t threads[kMaxStreams];
  pthread_barrier_init(&pass_start, NULL, (unsigned)count + 1);
  pthread_barrier_init(&pass_end, NULL, (unsigned)count + 1);
  for (int i = 0; i < count; i++) {
    streams[i].index = i;
    if (opt.own_context) {
      CUcontext popped;
      CHECK(cu.cuCtxCreate_v2(&streams[i].context, opt.blocking_sync ? CU_CTX_SCHED_BLOCKING_SYNC : 0, device));
      CHECK(cu.cuCtxPopCurrent_v2(&popped));
    } else {
      streams[i].context = primary;
    }
    if (pthread_create(&threads[i], NULL, stream_main, &streams[i]) != 0) fail(1, "cannot start a thread");
  }
  double wall[kMaxPasses], rate[kMaxPasses], cpu = 0, slowest = 0;
  unsigned per_stream = 0;
  for (int pass = 0; pass < pass_count(); pass++) {
    pthread_barrier_wait(&pass_start);
    double begin = now_s(CLOCK_MONOTONIC), cpu_begin = now_s(CLOCK_PROCESS_CPUTIME_ID);
    pthread_barrier_wait(&pass_end);
    double seconds = now_s(CLOCK_MONOTONIC) - begin, cpu_seconds = now_s(CLOCK_PROCESS_CPUTIME_ID) - cpu_begin;
    if (pass == 0) per_stream = streams[0].frames;
    for (int i = 0; i < count; i++) {
      if (streams[i].frames != per_stream) fail(1, "stream %d showed %u frames, stream 0 %u", i, streams[i].frames, per_stream);
      if (pass > 0 && (slowest == 0 || per_stream / streams[i].seconds < slowest)) slowest = per_stream / streams[i].seconds;
    }
    if (pass == 0 && !opt.md5) continue; /* the untimed pass that creates the decoders */
    int timed = opt.md5 ? 0 : pass - 1;
    wall[timed] = seconds;
    rate[timed] = (double)per_stream * count / seconds;
    cpu += cpu_seconds;
  }
  for (int i = 0; i < count; i++) pthread_join(threads[i], NULL);
  Stream* s = &streams[0];
  if (opt.md5) {
    Md5Compare result = md5_compare(&s->md5s, opt.md5_compare);
    for (unsigned i = 0; i < s->md5s.count; i++) {
      if (opt.json) printf("{\"frame\":%u,\"md5\":\"%s\"}\n", i, s->md5s.hex[i]);
      else printf("frame %u %s\n", i, s->md5s.hex[i]);
    }
    printf("{\"bench\":\"nvdec_decode\",");
    print_device_fields();
    printf(
        ",\"width\":%u,\"height\":%u,\"md5_frames\":%u,\"md5_reference_frames\":%d,\"md5_mismatches\":%d,"
        "\"first_mismatch\":%d,\"decode_errors\":%u}\n",
        s->width, s->height, s->md5s.count, result.reference_frames, result.mismatches, result.first_mismatch, s->decode_errors);
    if (result.mismatches) exit(1);
  } else {
    int timed = opt.repeat;
    double sorted[kMaxPasses];
    memcpy(sorted, wall, sizeof(double) * (size_t)timed);
    qsort(sorted, (size_t)timed, sizeof(double), cmp_double);
    double median = timed % 2 ? sorted[timed / 2] : (sorted[timed / 2 - 1] + sorted[timed / 2]) / 2;
    double frames = (double)per_stream * count, aggregate = frames / median;
    double cpu_us = cpu / (frames * timed) * 1e6;
    if (opt.json) {
      printf("{\"bench\":\"nvdec_decode\",");
      print_device_fields();
      printf(
          ",\"width\":%u,\"height\":%u,\"coded_width\":%u,\"coded_height\":%u,\"access_units\":%zu,"
          "\"streams\":%d,\"context\":\"%s\",\"sync\":\"%s\",\"repeats\":%d,\"frames_per_stream\":%u,\"frames\":%.0f,"
          "\"seconds\":%.6f,\"fps\":%.1f,\"aggregate_fps\":%.1f,\"aggregate_fps_runs\":[",
          s->width, s->height, s->format.coded_width, s->format.coded_height, unit_count, count, opt.own_context ? "own" : "shared",
          opt.blocking_sync ? "blocking" : "auto", timed, per_stream, frames, median, aggregate / count, aggregate);
      for (int i = 0; i < timed; i++) printf("%s%.1f", i ? "," : "", rate[i]);
      printf(
          "],\"slowest_stream_fps\":%.1f,\"cpu_us_per_frame\":%.2f,\"decode_surfaces\":%d,"
          "\"min_decode_surfaces\":%d,\"display_delay\":%d,\"end_of_picture\":%s}\n",
          slowest, cpu_us, s->surfaces, s->format.min_num_decode_surfaces, opt.display_delay, opt.eop ? "true" : "false");
    } else {
      printf(
          "%s %ux%u, %d stream(s), %s context, %s sync: %u frames each, %.4f s (median of %d), %.1f fps per stream, "
          "%.1f fps aggregate, %.1f us CPU per frame, %d decode surfaces (parser's minimum %d)\n",
          opt.file, s->width, s->height, count, opt.own_context ? "own" : "shared", opt.blocking_sync ? "blocking" : "auto", per_stream, median,
          timed, aggregate / count, aggregate, cpu_us, s->surfaces, s->format.min_num_decode_surfaces);
    }
  }
  fflush(stdout);
  for (int i = 0; i < count; i++) {
    md5_list_free(&streams[i].md5s);
    free(streams[i].host);
    if (opt.own_context) CHECK(cu.cuCtxDestroy_v2(streams[i].context));
  }
  pthread_barrier_destroy(&pass_start);
  pthread_barrier_destroy(&pass_end);
  free(streams);
}

static int parse_int(const char* text, const char* name, int low, int high) {
  char* end;
  long value = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < low || value > high) fail(1, "%s takes a whole number from %d to %d, not '%s'", name, low, high, text);
  return (int)value;
}

static void parse_args(int argc, char** argv) {
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : NULL;
    int takes = strcmp(a, "--streams") == 0 || strcmp(a, "--repeat") == 0 || strcmp(a, "--device") == 0 || strcmp(a, "--context") == 0 ||
                strcmp(a, "--surfaces") == 0 || strcmp(a, "--display-delay") == 0 || strcmp(a, "--md5-compare") == 0 || strcmp(a, "--sync") == 0;
    if (takes && !value) fail(1, "%s needs a value", a);
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      printf(
          "usage: nvdec_decode_c FILE.h264 [--streams 1,2,4,8] [--repeat 5] [--json] [--md5]\n"
          "       [--md5-compare FILE.framemd5] [--device 0] [--context shared|own] [--surfaces N]\n"
          "       [--display-delay 4] [--end-of-picture] [--sync auto|blocking]   (bench/nvdec_decode.c explains each)\n");
      exit(0);
    } else if (strcmp(a, "--streams") == 0) {
      char list[256];
      snprintf(list, sizeof list, "%s", value);
      opt.stream_counts = 0;
      for (char* part = strtok(list, ","); part; part = strtok(NULL, ",")) {
        if (opt.stream_counts == kMaxStreams) fail(1, "--streams lists at most %d counts", kMaxStreams);
        opt.streams[opt.stream_counts++] = parse_int(part, "--streams", 1, kMaxStreams);
      }
      if (opt.stream_counts == 0) fail(1, "--streams needs a count, e.g. 1,2,4,8");
    } else if (strcmp(a, "--repeat") == 0) {
      opt.repeat = parse_int(value, a, 1, kMaxPasses - 1);
    } else if (strcmp(a, "--device") == 0) {
      opt.device = parse_int(value, a, 0, 63);
    } else if (strcmp(a, "--context") == 0) {
      if (strcmp(value, "shared") != 0 && strcmp(value, "own") != 0) fail(1, "--context takes shared or own, not '%s'", value);
      opt.own_context = strcmp(value, "own") == 0;
    } else if (strcmp(a, "--sync") == 0) {
      if (strcmp(value, "auto") != 0 && strcmp(value, "blocking") != 0) fail(1, "--sync takes auto or blocking, not '%s'", value);
      opt.blocking_sync = strcmp(value, "blocking") == 0;
    } else if (strcmp(a, "--surfaces") == 0) {
      opt.surfaces = parse_int(value, a, 1, kMaxSurfaces);
    } else if (strcmp(a, "--display-delay") == 0) {
      opt.display_delay = parse_int(value, a, 0, 16);
    } else if (strcmp(a, "--md5-compare") == 0) {
      opt.md5_compare = value;
    } else if (strcmp(a, "--md5") == 0) {
      opt.md5 = 1;
    } else if (strcmp(a, "--json") == 0) {
      opt.json = 1;
    } else if (strcmp(a, "--end-of-picture") == 0) {
      opt.eop = 1;
    } else if (a[0] == '-' || opt.file) {
      fail(1, "unknown argument '%s' (--help lists them)", a);
    } else {
      opt.file = a;
      continue;
    }
    if (takes) i++;
  }
  if (!opt.file) fail(1, "no input: give an Annex-B .h264 file (--help)");
  if (opt.stream_counts == 0) opt.streams[opt.stream_counts++] = 1;
  if (opt.md5_compare && !opt.md5) fail(1, "--md5-compare goes with --md5");
  if (opt.md5 && (opt.stream_counts != 1 || opt.streams[0] != 1)) fail(1, "--md5 decodes one stream");
}

int main(int argc, char** argv) {
  for (int i = 1; i < argc; i++) opt.json |= strcmp(argv[i], "--json") == 0; /* errors below in JSON too */
  parse_args(argc, argv);
  read_file(opt.file);
  split_access_units();
  load_libraries();
  CUresult init = cu.cuInit(0);
  if (init != 0) fail(2, "cuInit failed (%d): no usable NVIDIA GPU", init);
  int devices = 0;
  CHECK(cu.cuDeviceGetCount(&devices));
  if (opt.device >= devices) fail(2, "--device %d: this machine has %d CUDA device(s)", opt.device, devices);
  CHECK(cu.cuDeviceGet(&device, opt.device));
  CHECK(cu.cuDeviceGetName(device_name, sizeof device_name, device));
  CHECK(cu.cuDriverGetVersion(&driver_version));
  CUuuid uuid;
  CHECK(cu.cuDeviceGetUuid(&uuid, device));
  for (int i = 0; i < 16; i++) sprintf(device_uuid + 2 * i, "%02x", uuid.bytes[i]);
  if (opt.blocking_sync) CHECK(cu.cuDevicePrimaryCtxSetFlags_v2(device, CU_CTX_SCHED_BLOCKING_SYNC));
  CHECK(cu.cuDevicePrimaryCtxRetain(&primary, device));
  CHECK(cu.cuCtxPushCurrent_v2(primary));
  caps.eCodecType = cudaVideoCodec_H264;
  caps.eChromaFormat = cudaVideoChromaFormat_420;
  CHECK(cuvid.cuvidGetDecoderCaps(&caps));
  if (!caps.bIsSupported) fail(2, "%s's NVDEC does not decode H.264 4:2:0 8-bit", device_name);
  CUcontext popped;
  CHECK(cu.cuCtxPopCurrent_v2(&popped));
  for (int i = 0; i < opt.stream_counts; i++) run_streams(opt.streams[i]);
  CHECK(cu.cuDevicePrimaryCtxRelease_v2(device));
  free(unit_at);
  free(bytes);
  return 0;
}
