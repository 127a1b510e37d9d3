// The one UUID formatter: OpenCL's CL_DEVICE_UUID_KHR and Vulkan's deviceUUID
// are the same 16 bytes for the same GPU, so both sides print them alike.

/** 16 UUID bytes (OpenCL's CL_DEVICE_UUID_KHR, Vulkan's deviceUUID) as 8-4-4-4-12 lowercase hex. */
export function formatUuid(bytes: Uint8Array | readonly number[]): string {
  if (bytes.length !== 16) throw new RangeError(`a UUID has 16 bytes; got ${bytes.length}`);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
