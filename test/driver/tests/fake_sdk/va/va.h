/* stand-in for libva's header, so cl_va_api_media_sharing_intel.h parses */
#pragma once
typedef unsigned int VASurfaceID;
typedef void *VADisplay;
typedef struct VAImageFormat {
  unsigned int fourcc;
} VAImageFormat;
