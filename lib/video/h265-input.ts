// A decode run's H.265 input: bytes (Annex-B, or MP4 samples with their hvcC
// extradata) through nal-input.ts to the H.265 room's sequencer.
import { describeValue } from '../errors';
import { checkChoice, checkOptions } from '../validate';
import { parseHvcC } from './h265/hvcc';
import { H265Sequencer } from './h265/sequencer';
import type { H265Event, H265SequencerOptions } from './h265/sequencer-types';
import { NalInput } from './nal-input';

export interface H265InputOptions {
  /** 'annexb' (default: start codes, a raw .h265 file) or 'hvcc' (MP4 samples: NAL units after length fields). */
  format?: 'annexb' | 'hvcc';
  /** The hvcC box's payload (MP4's extradata): its VPS, SPS and PPS, and the length field size. Required for 'hvcc'. */
  extradata?: Uint8Array;
}

/** The most bytes one NAL unit of a picture of at most `width` x `height` may take (10-bit 4:2:0 raw, twice, plus 1 MiB). */
function maxUnitBytes(width: number, height: number): number {
  return Math.ceil((width * height * 3 * 10) / 8) + (1 << 20);
}

export class H265Input extends NalInput<H265Event> {
  readonly format: 'annexb' | 'hvcc';

  constructor(options: H265InputOptions | undefined, limits: H265SequencerOptions) {
    const o = checkOptions<H265InputOptions>(options, 'options', ['format', 'extradata']);
    const format = checkChoice(o.format, 'options.format', ['annexb', 'hvcc'] as const, 'annexb');
    const sequencer = new H265Sequencer(limits);
    const most = maxUnitBytes(limits.maxWidth ?? 4096, limits.maxHeight ?? 4096);
    if (format === 'hvcc') {
      if (!(o.extradata instanceof Uint8Array))
        throw new TypeError(`options.extradata must be the hvcC payload (a Uint8Array) for format 'hvcc'; got ${describeValue(o.extradata)}`);
      const hvcc = parseHvcC(o.extradata);
      super(sequencer, { lengthSize: hvcc.nalLengthSize, parameterSets: hvcc.nalUnits, maxUnitBytes: most });
    } else {
      if (o.extradata !== undefined) throw new TypeError("options.extradata goes with format 'hvcc' only");
      super(sequencer, { lengthSize: 0, parameterSets: [], maxUnitBytes: most });
    }
    this.format = format;
  }
}
