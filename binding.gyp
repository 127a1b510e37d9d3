{
  "targets": [
    {
      "target_name": "opencl_interop",
      "sources": [
        "native/addon.cc",
        "native/errors.cc",
        "native/convert.cc",
        "native/loader.cc",
        "native/completion.cc",
        "native/status_notify.cc",
        "native/platform.cc",
        "native/device.cc",
        "native/context.cc",
        "native/queue.cc",
        "native/mapping.cc",
        "native/memory.cc",
        "native/host_memory.cc",
        "native/os_handle.cc",
        "native/sampler.cc",
        "native/program.cc",
        "native/kernel.cc",
        "native/event.cc",
        "native/interop/extensions.cc",
        "native/interop/nv_d3d9.cc",
        "native/interop/d3d10.cc",
        "native/interop/d3d11.cc",
        "native/interop/intel_dx9.cc",
        "native/interop/khr_dx9_media.cc",
        "native/interop/va_api.cc",
        "native/va/loader.cc",
        "native/va/display.cc",
        "native/va/surface.cc",
        "native/interop/external_memory.cc",
        "native/interop/semaphore.cc",
        "native/vulkan/vulkan.cc",
        "native/vulkan/loader.cc",
        "native/vulkan/instance.cc",
        "native/vulkan/device.cc",
        "native/vulkan/fence_waiter.cc",
        "native/vulkan/memory.cc",
        "native/vulkan/semaphore.cc",
        "native/vulkan/commands.cc",
        "native/video/video.cc",
        "native/video/decoder.cc",
        "native/video/decoder_state.cc",
        "native/video/decode_frame.cc",
        "native/video/h264_params.cc",
        "native/video/h264_picture.cc",
        "native/video/h265_params.cc",
        "native/video/h265_picture.cc",
        "native/video/decode_queue_registry.cc",
        "native/ipc/handle_channel.cc"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "native"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17"],
      "conditions": [
        ["OS=='linux'", {"libraries": ["-ldl"]}],
        ["OS=='win'", {
          "sources": ["native/direct3d/direct3d.cc", "native/direct3d/d3d11.cc", "native/direct3d/d3d10.cc", "native/direct3d/d3d9.cc"],
          "defines": ["_HAS_EXCEPTIONS=1"],
          "msvs_settings": {"VCCLCompilerTool": {"ExceptionHandling": 1, "AdditionalOptions": ["/std:c++17"]}}
        }],
        ["OS=='mac'", {
          "xcode_settings": {"GCC_ENABLE_CPP_EXCEPTIONS": "YES", "CLANG_CXX_LANGUAGE_STANDARD": "c++17"}
        }]
      ]
    }
  ]
}
