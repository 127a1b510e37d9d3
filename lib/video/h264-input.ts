// A decode run's H.264 input: bytes (Annex-B, or MP4 samples with their avcC
// extradata) through nal-input.ts to the H.264 room's sequencer.
import { describeValue } from '../errors';
import { checkChoice, checkOptions } from '../validate';
import { parseAvcC } from './h264/nal';
import { limitsOf, maxPictureBytes } from './h264/limits';
import { H264Sequencer } from './h264/sequencer';
import type { H264Event, H264SequencerOptions } from './h264/types';
import { NalInput } from './nal-input';

export { checkChunk, type VideoPacket } from './nal-input';

export interface H264InputOptions {
  /** 'annexb' (default: start codes, a raw .h264 file) or 'avcc' (MP4 samples: NAL units after length fields). */
  format?: 'annexb' | 'avcc';
  /** The avcC box's payload (MP4's extradata): its SPS and PPS, and the length field size. Required for 'avcc'. */
  extradata?: Uint8Array;
}

export class H264Input extends NalInput<H264Event> {
  readonly format: 'annexb' | 'avcc';

  constructor(options: H264InputOptions | undefined, limits: H264SequencerOptions) {
    const o = checkOptions<H264InputOptions>(options, 'options', ['format', 'extradata']);
    const format = checkChoice(o.format, 'options.format', ['annexb', 'avcc'] as const, 'annexb');
    const sequencer = new H264Sequencer(limits);
    const { maxWidth, maxHeight } = limitsOf(limits);
    const maxUnitBytes = maxPictureBytes(maxWidth, maxHeight);
    if (format === 'avcc') {
      if (!(o.extradata instanceof Uint8Array))
        throw new TypeError(`options.extradata must be the avcC payload (a Uint8Array) for format 'avcc'; got ${describeValue(o.extradata)}`);
      const avcc = parseAvcC(o.extradata);
      super(sequencer, { lengthSize: avcc.nalLengthSize, parameterSets: [...avcc.sps, ...avcc.pps], maxUnitBytes });
    } else {
      if (o.extradata !== undefined) throw new TypeError("options.extradata goes with format 'avcc' only");
      super(sequencer, { lengthSize: 0, parameterSets: [], maxUnitBytes });
    }
    this.format = format;
  }
}
