// The video decoder's side that runs without video hardware: on lavapipe
// (matched by UUID to the reference driver) asking for a decoder is the typed
// "no video decode queue" error, bad options are typed errors naming the
// option, the records the native side reads are laid out as it reads them, and
// the decoder input gives the sequencer the same units whatever the chunks.
// The Vulkan Video declarations: test/video-vulkan-declarations.test.ts.
// Decoding itself runs on the GPU suite (test/gpu/video-decode.test.mjs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VideoDecodeUnsupportedError, createVideoDecoder, createVulkanInstance, describeVideoSupport, frameLayout, videoDecodeSupport } from '../lib';
import { H264Input, checkChunk, type VideoPacket } from '../lib/video/h264-input';
import { DESC_HEADER, DESC_REF, pictureDescriptor, stdLevel } from '../lib/video/h264-vulkan';
import { splitAnnexB, splitLengthPrefixed } from '../lib/video/h264/nal';
import type { H264Event, H264Picture } from '../lib/video/h264/types';
import { repoRoot, runNode } from './helpers';
import { matchedToLavapipe } from './helpers/ref-driver';

describe('a device without a video decode queue (lavapipe)', () => {
  it('videoDecodeSupport says so, and `info` prints it', () => {
    using m = matchedToLavapipe();
    const instance = createVulkanInstance();
    try {
      const support = videoDecodeSupport(instance, instance.physicalDevices()[0]!);
      expect(support).toMatchObject({ decodeFamily: null, decodeQueues: 0, codecs: [], profiles: [] });
      expect(describeVideoSupport(support)).toEqual(['no video decode queue']);
    } finally {
      instance.dispose();
    }
    void m;
  });

  it('createVideoDecoder is a typed VideoDecodeUnsupportedError (reason no-decode-queue) naming the device, before any GPU work', () => {
    using m = matchedToLavapipe();
    let thrown: unknown;
    try {
      createVideoDecoder({ context: m.context });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VideoDecodeUnsupportedError);
    const error = thrown as VideoDecodeUnsupportedError;
    expect(error.reason).toBe('no-decode-queue');
    expect(error.device).toBe(m.physical.name);
    expect(error.message).toContain('this device has no video decode queue');
  });

  it('bad options are TypeError / RangeError naming the option', () => {
    using m = matchedToLavapipe();
    expect(() => createVideoDecoder(undefined as never)).toThrow(TypeError);
    expect(() => createVideoDecoder({ context: 5 as never })).toThrow(/options.context must be an OpenCL Context/);
    expect(() => createVideoDecoder({ context: m.context, codec: 'vp9' as never })).toThrow(/options.codec/);
    // codec: the argument named, what it takes and what it was given, before any device is asked.
    for (const [codec, got] of [
      ['vp9', 'the string "vp9"'],
      ['H265', 'the string "H265"'],
      [265, 'number 265'],
      [null, 'null'],
    ] as const) {
      let thrown: unknown;
      try {
        createVideoDecoder({ context: m.context, codec: codec as never });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as TypeError).message).toBe(`options.codec must be 'h264', 'h265'; got ${got}`);
    }
    expect(() => createVideoDecoder({ context: m.context, frames: 1 })).toThrow(RangeError);
    expect(() => createVideoDecoder({ context: m.context, inFlight: 0 })).toThrow(/options.inFlight/);
    expect(() => createVideoDecoder({ context: m.context, bogus: 1 } as never)).toThrow(/bogus/);
    expect(() => createVideoDecoder({ context: m.context, queues: 'all' as never })).toThrow(/options.queues must be 'own', 'shared'/);
  });

  it("codec 'h265' (OPENCL_INTEROP_EXPERIMENTAL_H265=1) and 'h264' named ask the same device: the typed no-decode-queue error, before any GPU work", () => {
    using m = matchedToLavapipe();
    process.env.OPENCL_INTEROP_EXPERIMENTAL_H265 = '1';
    try {
      for (const codec of ['h264', 'h265'] as const) {
        let thrown: unknown;
        try {
          createVideoDecoder({ context: m.context, codec });
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(VideoDecodeUnsupportedError);
        expect((thrown as VideoDecodeUnsupportedError).reason).toBe('no-decode-queue');
        expect((thrown as VideoDecodeUnsupportedError).device).toBe(m.physical.name);
      }
    } finally {
      delete process.env.OPENCL_INTEROP_EXPERIMENTAL_H265;
    }
  });

  it("codec 'h265' without OPENCL_INTEROP_EXPERIMENTAL_H265=1: the typed 'experimental' error, which says why", () => {
    using m = matchedToLavapipe();
    let thrown: unknown;
    try {
      createVideoDecoder({ context: m.context, codec: 'h265' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VideoDecodeUnsupportedError);
    expect((thrown as VideoDecodeUnsupportedError).reason).toBe('experimental');
    expect((thrown as Error).message).toMatch(
      /H.265 decoding is experimental: on NVIDIA \(driver 580\) its frames do not yet equal FFmpeg's; OPENCL_INTEROP_EXPERIMENTAL_H265=1 enables it/,
    );
  });

  it('in a fresh process the typed error leaves nothing behind: the process exits 0 at once', async () => {
    const run = await runNode(`
      const instance = ocl.createVulkanInstance();
      process.env.REFDRV_DEVICE_UUID = Buffer.from(instance.physicalDevices()[0].deviceUUID).toString('hex');
      const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
      const context = ocl.createContext({ devices: [platform.getDevices()[0]] });
      try { ocl.createVideoDecoder({ context }); } catch (e) { console.log(e.name, e.reason); }
    `);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('VideoDecodeUnsupportedError no-decode-queue');
  });
});

describe('output frames: NV12 rows the OpenCL import takes', () => {
  it('pitch is the width rounded up to 256 bytes; the UV plane starts 4 KiB-aligned after the Y rows', () => {
    expect(frameLayout(1920, 1080)).toEqual({ width: 1920, height: 1080, pitch: 2048, uvOffset: 2048 * 1080, size: 2048 * 1080 * 1.5 });
    expect(frameLayout(350, 198)).toEqual({ width: 350, height: 198, pitch: 512, uvOffset: 102400, size: 102400 + 512 * 99 });
  });
});

describe('the records the native side reads', () => {
  it('level_idc maps to StdVideoH264LevelIdc (1.0 = 0 ... 6.2 = 18; 1b reads as 1.1)', () => {
    expect([10, 9, 11, 31, 40, 51, 52, 62, 99].map(stdLevel)).toEqual([0, 1, 1, 8, 10, 14, 15, 18, 18]);
  });

  it('a picture descriptor holds the picture, then five ints per reference', () => {
    const picture = {
      setupSlot: 3,
      isIntra: false,
      isIdr: false,
      isReference: true,
      isLongTerm: true,
      spsId: 1,
      ppsId: 2,
      frameNum: 7,
      idrPicId: 0,
      poc: { top: 14, bottom: 15 },
      crop: { left: 0, top: 2, width: 350, height: 198 },
      references: [
        { slot: 0, frameNum: 6, longTerm: false, nonExisting: false, poc: { top: 12, bottom: 12 }, decodeIndex: 6 },
        { slot: 5, frameNum: 1, longTerm: true, nonExisting: true, poc: { top: -2, bottom: -2 }, decodeIndex: -1 },
      ],
    } as unknown as H264Picture;
    const d = pictureDescriptor(picture);
    expect(d.length).toBe(DESC_HEADER + 2 * DESC_REF);
    expect([...d]).toEqual([3, 4 | 8, 1, 2, 7, 0, 14, 15, 0, 2, 350, 198, 2, 0, 6, 0, 12, 12, 5, 1, 3, -2, -2]);
  });
});

describe('the decoder input: NAL units to the sequencer, whatever the chunks (no GPU)', () => {
  const limits = { maxWidth: 4096, maxHeight: 4096, maxSlots: 17, maxLevelIdc: 52 };
  const fixtures = join(repoRoot, 'test/fixtures/h264');
  /** Every event of a run, each picture reduced to what the decoder sends the device. */
  function run(input: H264Input, chunks: Iterable<Uint8Array>): string[] {
    const out: string[] = [];
    const note = (events: readonly H264Event[]) => {
      for (const e of events)
        out.push(
          e.type === 'output'
            ? `out ${e.decodeIndex}`
            : `pic ${[...pictureDescriptor(e.picture)].join(',')} ${e.picture.sliceOffsets.join(',')} ${e.picture.data.length}`,
        );
    };
    for (const chunk of chunks) note(input.push(chunk));
    note(input.flush());
    return out;
  }
  /**
   * b-pyramid.mp4's NAL units, each with its 4-byte length field: its mdat payload split by the stream's own length
   * fields (the example's box reader finds the samples from stsz/stco instead).
   */
  function mp4Nals(): Uint8Array[] {
    const mp4 = new Uint8Array(readFileSync(join(fixtures, 'b-pyramid.mp4')));
    const mdat = mp4.findIndex((_, i) => mp4[i] === 0x6d && mp4[i + 1] === 0x64 && mp4[i + 2] === 0x61 && mp4[i + 3] === 0x74); // 'mdat'
    const payload = mp4.subarray(mdat + 4);
    const nals: Uint8Array[] = [];
    for (let at = 0; at + 4 <= payload.length; ) {
      const length = ((payload[at]! << 24) | (payload[at + 1]! << 16) | (payload[at + 2]! << 8) | payload[at + 3]!) >>> 0;
      if (length === 0 || at + 4 + length > payload.length) break;
      nals.push(payload.subarray(at, at + 4 + length));
      at += 4 + length;
    }
    return nals;
  }
  function* pieces(bytes: Uint8Array, size: number) {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  }

  it('an Annex-B stream in 1-byte, 7-byte and 64 KiB chunks gives the same pictures and outputs as the whole file', () => {
    const bytes = new Uint8Array(readFileSync(join(fixtures, 'b-pyramid.h264')));
    const whole = run(new H264Input(undefined, limits), [bytes]);
    expect(whole.filter((e) => e.startsWith('pic')).length).toBe(20);
    expect(whole.filter((e) => e.startsWith('out')).length).toBe(20);
    for (const size of [1, 7, 1 << 16]) expect(run(new H264Input(undefined, limits), pieces(bytes, size))).toEqual(whole);
  });

  it("the MP4 samples of the same stream with its avcC ({ format: 'avcc', extradata }) give the same pictures and outputs", () => {
    const annexB = run(new H264Input(undefined, limits), [new Uint8Array(readFileSync(join(fixtures, 'b-pyramid.h264')))]);
    const extradata = new Uint8Array(readFileSync(join(fixtures, 'b-pyramid.avcc')));
    const nals = mp4Nals();
    const input = new H264Input({ format: 'avcc', extradata }, limits);
    expect(run(input, nals)).toEqual(annexB);
  });

  /** NAL units grouped into access units: one starts at a slice with first_mb_in_slice 0, or at SEI/SPS/PPS/AUD after a slice. */
  function accessUnits(nals: readonly Uint8Array[], headerAt: number): Uint8Array[][] {
    const units: Uint8Array[][] = [];
    let current: Uint8Array[] = [];
    let sawSlice = false;
    for (const nal of nals) {
      const type = nal[headerAt]! & 31;
      const slice = type === 1 || type === 5;
      const starts = slice ? (nal[headerAt + 1]! & 0x80) !== 0 && sawSlice : [6, 7, 8, 9].includes(type) && sawSlice;
      if (starts) {
        units.push(current);
        current = [];
        sawSlice = false;
      }
      current.push(nal);
      sawSlice ||= slice;
    }
    if (current.length) units.push(current);
    return units;
  }
  const annexBPacket = (nals: readonly Uint8Array[]) => Buffer.concat(nals.flatMap((n) => [Buffer.of(0, 0, 0, 1), n]));
  /** The pictures' timestamps as the decoder takes them (takeTimestamp per picture event), and every event. */
  function timestampsOf(input: H264Input, chunks: Iterable<Uint8Array | VideoPacket>): { events: string[]; stamps: (number | bigint | undefined)[] } {
    const events: string[] = [];
    const stamps: (number | bigint | undefined)[] = [];
    const note = (list: readonly H264Event[]) => {
      for (const e of list) {
        if (e.type === 'output') events.push(`out ${e.decodeIndex}`);
        else {
          events.push(`pic ${[...pictureDescriptor(e.picture)].join(',')} ${e.picture.sliceOffsets.join(',')} ${e.picture.data.length}`);
          stamps[e.picture.decodeIndex] = input.takeTimestamp(e.picture.decodeIndex);
          expect(input.takeTimestamp(e.picture.decodeIndex)).toBeUndefined(); // taken once
        }
      }
    };
    for (const chunk of chunks) note(input.push(chunk));
    note(input.flush());
    return { events, stamps };
  }

  it("Annex-B packets (one access unit each, with a timestamp): the same pictures and outputs as the whole file, each picture with its packet's timestamp", () => {
    for (const name of ['b-pyramid', 'slices4']) {
      const bytes = new Uint8Array(readFileSync(join(fixtures, `${name}.h264`)));
      const whole = run(new H264Input(undefined, limits), [bytes]);
      const units = accessUnits(splitAnnexB(bytes), 0);
      const pictures = whole.filter((e) => e.startsWith('pic')).length;
      expect(units.length).toBe(pictures);
      const packets = units.map((nals, i) => ({ data: annexBPacket(nals), timestamp: BigInt(i * 3003 + 90000) }));
      const got = timestampsOf(new H264Input(undefined, limits), packets);
      expect(got.events).toEqual(whole);
      expect(got.stamps).toEqual(packets.map((p) => p.timestamp));
    }
  });

  it('packets after raw chunks: what the chunks held ends at the first packet, and only pictures from packets carry a timestamp', () => {
    const bytes = new Uint8Array(readFileSync(join(fixtures, 'b-pyramid.h264')));
    const whole = run(new H264Input(undefined, limits), [bytes]);
    const units = accessUnits(splitAnnexB(bytes), 0);
    const raw = [...pieces(Buffer.concat(units.slice(0, 5).map(annexBPacket)), 1000)];
    const packets = units.slice(5).map((nals, i) => ({ data: annexBPacket(nals), timestamp: i + 0.5 }));
    const got = timestampsOf(new H264Input(undefined, limits), [...raw, ...packets]);
    expect(got.events).toEqual(whole);
    expect(got.stamps).toEqual([undefined, undefined, undefined, undefined, undefined, ...packets.map((p) => p.timestamp)]);
  });

  it("MP4 samples as packets ({ format: 'avcc', extradata }, a timestamp each) give the same pictures, each with its sample's timestamp", () => {
    const annexB = run(new H264Input(undefined, limits), [new Uint8Array(readFileSync(join(fixtures, 'b-pyramid.h264')))]);
    const extradata = new Uint8Array(readFileSync(join(fixtures, 'b-pyramid.avcc')));
    const nals = mp4Nals();
    expect(splitLengthPrefixed(Buffer.concat(nals), 4).length).toBe(nals.length);
    const packets = accessUnits(nals, 4).map((unit, i) => ({ data: Buffer.concat(unit), timestamp: i * 512 }));
    const got = timestampsOf(new H264Input({ format: 'avcc', extradata }, limits), packets);
    expect(got.events).toEqual(annexB);
    expect(got.stamps).toEqual(packets.map((p) => p.timestamp));
  });

  it('a typed error ends a push(), and the events it had made come with the next call (nothing the sequencer gave out is lost)', () => {
    const units = splitAnnexB(new Uint8Array(readFileSync(join(fixtures, 'ip-cavlc.h264'))));
    const start = Uint8Array.of(0, 0, 0, 1);
    const bad = Uint8Array.of(0x67, 0x00); // an SPS cut after its header
    const chunk = Buffer.concat([...units.slice(0, 6).flatMap((n) => [start, n]), start, bad, start, units[6]!]);
    for (const asPacket of [false, true]) {
      const input = new H264Input(undefined, limits);
      expect(() => input.push(asPacket ? { data: chunk, timestamp: 7 } : chunk)).toThrow(/SPS: profile_idc reads past the end/);
      const next = input.push(new Uint8Array(0)).filter((e) => e.type === 'picture');
      expect(next.length).toBeGreaterThan(0);
      expect(next.map((e) => (e.type === 'picture' ? input.takeTimestamp(e.picture.decodeIndex) : null))).toEqual(
        next.map(() => (asPacket ? 7 : undefined)),
      );
    }
  });

  it('a chunk that is neither a Uint8Array nor a packet is a TypeError naming what a chunk may be', () => {
    const u8 = new Uint8Array(4);
    expect(checkChunk(u8)).toBe(u8);
    const packet = { data: u8, timestamp: 5n };
    expect(checkChunk(packet)).toBe(packet);
    for (const bad of ['bytes', { data: [1, 2] }, { data: u8, timestamp: '5' }, null, 7])
      expect(() => checkChunk(bad)).toThrow(
        /every chunk must be a Uint8Array or a packet \{ data: Uint8Array, timestamp\?: number \| bigint \}; got/,
      );
  });

  it('every picture of a 16-reference stream names at most 16 references, none in its own setup slot, slots below 17', () => {
    const input = new H264Input(undefined, limits);
    const events = [...input.push(new Uint8Array(readFileSync(join(fixtures, 'ref16.h264')))), ...input.flush()];
    const pictures = events.flatMap((e) => (e.type === 'picture' ? [e.picture] : []));
    expect(pictures.length).toBe(30);
    for (const p of pictures) {
      expect(p.references.length).toBeLessThanOrEqual(16);
      expect(p.setupSlot).toBeLessThan(17);
      expect(p.references.map((r) => r.slot)).not.toContain(p.setupSlot);
    }
  });

  it('bad input options are typed: an unknown format, avcc without extradata, extradata with Annex-B', () => {
    expect(() => new H264Input({ format: 'mkv' as never }, limits)).toThrow(/options.format/);
    expect(() => new H264Input({ format: 'avcc' }, limits)).toThrow(/options.extradata must be the avcC payload/);
    expect(() => new H264Input({ extradata: new Uint8Array(8) }, limits)).toThrow(/goes with format 'avcc' only/);
  });
});
