// The VA module: libva loaded at run time, displays, surfaces and DMA-BUF
// import/export. It needs no OpenCL; the cl_intel_va_api_media_sharing facade
// (lib/interop/va-api.ts) takes its displays and surfaces.
export { VaDmaBuf, type VaDmaBufImport, type VaDmaBufLayer, type VaDmaBufObject, type VaDmaBufPlane } from './dma-buf';
export {
  VA_DEVICE_ENV,
  VaDisplay,
  openVaDisplay,
  type VaAdoptOptions,
  type VaDisplayOptions,
  type VaImageFormat,
  type VaProfileInfo,
  type VaSurfaceOptions,
} from './display';
export { VaSurface, type VaExportOptions, type VaPlaneTransferOptions, type VaTransferMethod } from './surface';
export { LIBVA_PACKAGES, VaDisplayError, VaError, VaNotAvailableError, type VaDisplayAttempt } from './errors';
export {
  DRM_FORMAT_MOD_INVALID,
  DRM_FORMAT_MOD_LINEAR,
  VA_EXPORT_SURFACE,
  VA_RT_FORMAT,
  VA_STATUS,
  VA_SURFACE_ATTRIB_MEM_TYPE,
  VA_SURFACE_STATUS,
  fourccCode,
  fourccText,
  vaFourccs,
  vaPlaneSizes,
  vaStatusName,
  type VaFourcc,
  type VaPlaneSize,
  type VaSurfaceState,
} from '../facts/va-formats';
export { LIBVA_ENV, loadLibva, loadedLibva, type LibvaLoadOptions, type LoadedLibva } from './loader';
