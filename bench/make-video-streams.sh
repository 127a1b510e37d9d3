#!/usr/bin/env bash
# Makes the H.264 streams the video decode benches read (bench/nvdec_decode.c,
# bench/video-decode.mjs), with FFmpeg and libx264 (Debian: ffmpeg), into the
# folder given (created if missing; keep it out of git, e.g. .cache/video-streams):
#   bash bench/make-video-streams.sh .cache/video-streams
# Writes, in that folder:
#   1080p.h264  1920x1080, 600 frames      4k.h264  3840x2160, 240 frames
#   short.h264  1920x1080, 48 frames (for the bit-exactness check)
#   NAME.framemd5  FFmpeg's software decoder's per-frame MD5 of each, as NV12
# Each: Annex-B, High profile, 4:2:0 8-bit, progressive, CABAC, 3 B-frames with
# a pyramid, 4 reference frames, a GOP of 120 at 30 fps, about 8 Mbit/s (1080p)
# and 10 Mbit/s (4K) average. testsrc2 moves but compresses to almost nothing,
# so temporal noise is added to make the encoder spend its bitrate, as camera
# video does. Sizes: about 20 MiB, 10 MiB and 2 MiB.
# Environment: FRAMES_1080P, FRAMES_4K, RATE_1080P, RATE_4K (e.g. 8M), PRESET
# (x264's, default veryfast) override the above.
set -euo pipefail
out=${1:?usage: bash bench/make-video-streams.sh OUTPUT_FOLDER}
command -v ffmpeg >/dev/null || { echo "make-video-streams: ffmpeg not found (Debian: apt-get install ffmpeg)" >&2; exit 2; }
[[ $(ffmpeg -hide_banner -encoders 2>/dev/null) == *libx264* ]] || { echo "make-video-streams: this ffmpeg has no libx264 encoder" >&2; exit 2; }
mkdir -p "$out"

# encode NAME WIDTH HEIGHT FRAMES RATE
encode() {
  local name=$1 width=$2 height=$3 frames=$4 rate=$5
  local rate_number=${rate%M}
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=${width}x${height}:rate=30,noise=alls=12:allf=t" \
    -frames:v "$frames" -pix_fmt yuv420p \
    -c:v libx264 -preset "${PRESET:-veryfast}" -profile:v high -level:v 5.1 \
    -b:v "$rate" -maxrate "$((rate_number * 5 / 4))M" -bufsize "$((rate_number * 2))M" \
    -x264-params "bframes=3:b-pyramid=normal:ref=4:keyint=120:min-keyint=120:scenecut=0:cabac=1" \
    -bsf:v h264_mp4toannexb -f h264 "$out/$name.h264"
  ffmpeg -hide_banner -loglevel error -y -i "$out/$name.h264" -pix_fmt nv12 -f framemd5 "$out/$name.framemd5"
  echo "$out/$name.h264: ${width}x${height}, $(grep -vc '^#' "$out/$name.framemd5") frames, $(stat -c %s "$out/$name.h264") bytes"
}

encode short 1920 1080 48 "${RATE_1080P:-8M}"
encode 1080p 1920 1080 "${FRAMES_1080P:-600}" "${RATE_1080P:-8M}"
encode 4k 3840 2160 "${FRAMES_4K:-240}" "${RATE_4K:-10M}"
