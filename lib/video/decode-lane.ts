// One decode session of a video decoder: a native decoder (its Vulkan video
// session, DPB and ring of bitstream and command buffers), the coded size it
// was configured for and the parameter sets it was last sent. A decoder has
// one; a second one starts a new coded video sequence (an IDR picture) on a
// spare decode queue while the first still decodes the last sequence
// (lib/video/decoder.ts).
import type { CodecPicture, DecoderCodec } from './codec';
import type { NativeVideoDecoder } from './native-types';
import { FORMAT_NV12, type VideoDecodeProfile } from './support';

export class DecodeLane {
  readonly native: NativeVideoDecoder;
  /** One entry per ring slot: the promise of the frame in flight there, or null. */
  readonly ring: (Promise<void> | null)[];
  #size = '';
  /** The parameter-set version last sent (-1: none). */
  #params = -1;

  constructor(native: NativeVideoDecoder, inFlight: number) {
    this.native = native;
    this.ring = new Array<Promise<void> | null>(inFlight).fill(null);
  }

  /** Whether any of its frames is in flight. */
  get busy(): boolean {
    return this.ring.some((p) => p !== null);
  }

  /** Resolves once its frames in flight are done (failed ones too). */
  async drain(): Promise<void> {
    await Promise.all(this.ring.map((p) => p?.catch(() => {})));
  }

  /** A free ring slot, once one is. */
  async slot(): Promise<number> {
    for (;;) {
      const free = this.ring.indexOf(null);
      if (free >= 0) return free;
      await Promise.race(this.ring.map((p) => p!.catch(() => {})));
    }
  }

  /**
   * Ready for `picture`: a session of its coded size (made anew, once the frames in flight are done, when the size
   * changed) holding the parameter sets of version `version` (the codec's, as it keeps them).
   */
  async fit(picture: CodecPicture, profile: VideoDecodeProfile, version: number, codec: DecoderCodec): Promise<void> {
    const size = `${picture.codedWidth}x${picture.codedHeight}`;
    if (size !== this.#size) {
      await this.drain();
      this.native.configure(picture.codedWidth, picture.codedHeight, profile.maxDpbSlots, profile.maxActiveReferences, FORMAT_NV12);
      this.#size = size;
      this.#params = -1;
    }
    if (this.#params !== version) {
      codec.sendParameters(this.native);
      this.#params = version;
    }
  }
}
