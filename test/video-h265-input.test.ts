// The decoder's H.265 input (lib/video/h265-input.ts through the decoder's
// H.265 side, lib/video/h265-codec.ts): an Annex-B stream in chunks of any
// size, and MP4 samples (length-prefixed NAL units, one access unit each) with
// the stream's hvcC ({ format: 'hvcc', extradata }), give the same pictures,
// descriptors and outputs as the whole file; bad input options and a
// malformed hvcC are typed errors. No GPU.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CodecEvent } from '../lib/video/codec';
import { H265BitstreamError, type H265Picture, splitAnnexB } from '../lib/video/h265';
import { H265Codec } from '../lib/video/h265-codec';
import { pictureDescriptor } from '../lib/video/h265-vulkan';
import { ffmpegDecode, fixtureDir, mainProfile as main } from './fixtures/h265/streams';

const file = (name: string) => new Uint8Array(readFileSync(join(fixtureDir, `${name}.h265`)));

/** The pictures of a run of the decoder's H.265 input over `chunks`, and its outputs. */
function run(
  chunks: readonly (Uint8Array | { data: Uint8Array; timestamp?: number })[],
  options?: { format?: 'annexb' | 'hvcc'; extradata?: Uint8Array },
) {
  const input = new H265Codec().input(options, [main]);
  const events: CodecEvent<H265Picture>[] = [];
  for (const chunk of chunks) events.push(...input.push(chunk));
  events.push(...input.flush());
  const pictures = events.filter((e) => e.type === 'picture').map((e) => e.picture);
  const timestamps = pictures.map((p) => input.takeTimestamp(p.decodeIndex));
  return { pictures, timestamps, outputs: events.filter((e) => e.type === 'output').map((e) => e.decodeIndex) };
}

/** The access units of an Annex-B stream: each a list of NAL units (a new one at a parameter set, AUD, prefix SEI or a first slice segment). */
function accessUnits(nals: readonly Uint8Array[]): Uint8Array[][] {
  const units: Uint8Array[][] = [];
  let current: Uint8Array[] = [];
  let hasSlice = false;
  for (const nal of nals) {
    const type = (nal[0]! >> 1) & 63;
    const first = type <= 31 && (nal[2]! & 0x80) !== 0;
    if (hasSlice && (first || (type >= 32 && type <= 35) || type === 39)) {
      units.push(current);
      current = [];
      hasSlice = false;
    }
    current.push(nal);
    if (type <= 31) hasSlice = true;
  }
  if (current.length) units.push(current);
  return units;
}

/** An hvcC record (ISO/IEC 14496-15 8.3.3.1) with 4-byte lengths holding `sets` (VPS, SPS, PPS units). */
function hvcC(sets: readonly Uint8Array[], lengthSize = 4): Uint8Array {
  const bytes = [1, 0x01, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 93, 0xf0, 0, 0xfc, 0xfd, 0xf8, 0xf8, 0, 0, 0x08 | (lengthSize - 1)];
  const types = [...new Set(sets.map((s) => (s[0]! >> 1) & 63))];
  bytes.push(types.length);
  for (const type of types) {
    const units = sets.filter((s) => ((s[0]! >> 1) & 63) === type);
    bytes.push(0x80 | type, units.length >> 8, units.length & 255);
    for (const u of units) bytes.push(u.length >> 8, u.length & 255, ...u);
  }
  return Uint8Array.from(bytes);
}

function lengthPrefixed(nals: readonly Uint8Array[]): Uint8Array {
  const out: number[] = [];
  for (const n of nals) out.push((n.length >>> 24) & 255, (n.length >>> 16) & 255, (n.length >>> 8) & 255, n.length & 255, ...n);
  return Uint8Array.from(out);
}

describe('the decoder’s H.265 input: bytes to pictures whatever the chunks or framing (no GPU)', () => {
  const same = (a: readonly H265Picture[], b: readonly H265Picture[]) => {
    expect(a.map((p) => [...pictureDescriptor(p)])).toEqual(b.map((p) => [...pictureDescriptor(p)]));
    expect(a.map((p) => [...p.data])).toEqual(b.map((p) => [...p.data]));
  };

  it('an Annex-B stream in 997-byte and 64 KiB chunks gives the same pictures, descriptors and outputs as the whole file', () => {
    for (const name of ['slices4', 'b-pyramid', 'open-gop']) {
      const bytes = file(name);
      const whole = run([bytes]);
      for (const size of [997, 65536]) {
        const chunks: Uint8Array[] = [];
        for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.slice(at, at + size));
        const chunked = run(chunks);
        same(chunked.pictures, whole.pictures);
        expect(chunked.outputs).toEqual(whole.outputs);
      }
      expect(whole.outputs.length).toBe(ffmpegDecode(name).frames);
    }
  });

  it("MP4 samples with the stream's hvcC ({ format: 'hvcc', extradata }) give the same pictures and outputs", () => {
    for (const name of ['ip', 'b-pyramid', 'slices4']) {
      const nals = splitAnnexB(file(name));
      const units = accessUnits(nals);
      const sets = units[0]!.filter((n) => ((n[0]! >> 1) & 63) >= 32 && ((n[0]! >> 1) & 63) <= 34);
      const samples = units.map((u) => lengthPrefixed(u.filter((n) => ((n[0]! >> 1) & 63) < 32 || ((n[0]! >> 1) & 63) > 34)));
      const whole = run([file(name)]);
      const mp4 = run(samples, { format: 'hvcc', extradata: hvcC(sets) });
      same(mp4.pictures, whole.pictures);
      expect(mp4.outputs).toEqual(whole.outputs);
      // As packets with a timestamp each: the same pictures, each with its sample's timestamp.
      const packets = run(
        samples.map((data, i) => ({ data, timestamp: i * 40 })),
        { format: 'hvcc', extradata: hvcC(sets) },
      );
      same(packets.pictures, whole.pictures);
      expect(packets.timestamps).toEqual(packets.pictures.map((_, i) => i * 40));
    }
  });

  it('bad input options are typed: an unknown format (or H.264’s avcc), hvcc without extradata, extradata with Annex-B, a malformed hvcC', () => {
    const input = (options: unknown) => new H265Codec().input(options as never, [main]);
    expect(() => input({ format: 'avcc' })).toThrow(/options.format must be 'annexb', 'hvcc'; got the string "avcc"/);
    expect(() => input({ format: 'hvcc' })).toThrow(/options.extradata must be the hvcC payload \(a Uint8Array\) for format 'hvcc'; got undefined/);
    expect(() => input({ extradata: new Uint8Array(30) })).toThrow(/extradata goes with format 'hvcc' only/);
    expect(() => input({ bogus: 1 })).toThrow(/bogus/);
    expect(() => input({ format: 'hvcc', extradata: new Uint8Array(10) })).toThrow(H265BitstreamError);
    expect(() => input({ format: 'hvcc', extradata: Uint8Array.of(2, ...new Uint8Array(22)) })).toThrow(/configurationVersion is 2/);
  });
});
