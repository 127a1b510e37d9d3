// Samplers (clCreateSampler / clCreateSamplerWithProperties): addressing,
// filtering and normalized coordinates by name.
import type { NativeSampler } from './addon';
import { CL } from './facts/cl-constants';
import type { ContextLink } from './links';
import { decode } from './info';
import { Resource } from './resource';

export type AddressingMode = 'none' | 'clamp-to-edge' | 'clamp' | 'repeat' | 'mirrored-repeat';
export type FilterMode = 'nearest' | 'linear';

/** @internal */
export const addressingModes: Record<AddressingMode, number> = {
  none: CL.CL_ADDRESS_NONE,
  'clamp-to-edge': CL.CL_ADDRESS_CLAMP_TO_EDGE,
  clamp: CL.CL_ADDRESS_CLAMP,
  repeat: CL.CL_ADDRESS_REPEAT,
  'mirrored-repeat': CL.CL_ADDRESS_MIRRORED_REPEAT,
};
/** @internal */
export const filterModes: Record<FilterMode, number> = { nearest: CL.CL_FILTER_NEAREST, linear: CL.CL_FILTER_LINEAR };

export interface SamplerOptions {
  normalizedCoords?: boolean;
  addressing?: AddressingMode;
  filter?: FilterMode;
}

export class Sampler extends Resource<NativeSampler> {
  readonly context: ContextLink;
  /** @internal */
  constructor(native: NativeSampler, context: ContextLink) {
    super(native);
    this.context = context;
  }
  get kind(): string {
    return 'Sampler';
  }
  info(param: number): Uint8Array {
    return this.native.info(param);
  }
  get normalizedCoords(): boolean {
    return decode.bool(this.native.info(CL.CL_SAMPLER_NORMALIZED_COORDS));
  }
  get addressing(): AddressingMode {
    const value = decode.uint(this.native.info(CL.CL_SAMPLER_ADDRESSING_MODE));
    return (Object.keys(addressingModes) as AddressingMode[]).find((k) => addressingModes[k] === value)!;
  }
  get filter(): FilterMode {
    const value = decode.uint(this.native.info(CL.CL_SAMPLER_FILTER_MODE));
    return (Object.keys(filterModes) as FilterMode[]).find((k) => filterModes[k] === value)!;
  }
}
