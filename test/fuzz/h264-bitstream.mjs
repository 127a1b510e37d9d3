#!/usr/bin/env node
// The H.264 bitstream fuzzer: the fixture streams (test/fixtures/h264) with
// bits flipped (mostly in the first bytes of NAL units, where the headers
// are), cut short, spliced with each other, NAL units dropped, repeated and
// reordered, random bytes inserted, fed whole or in random chunks, or as MP4
// samples with a damaged avcC, into H264Sequencer, or as packets with
// timestamps (random groups of units, raw chunks between them) through the
// decoder's input (H264Input), each picture's timestamp one of its packets'.
// Seeded: a seed is a case, and the same seed makes the same case.
//
// A typed error (H264BitstreamError, H264UnsupportedError) ends the call
// that threw it, and the case goes on with the next NAL unit, as a decoder
// skipping what it cannot use would: any other exception is a failure, as is
// a broken record (a setup slot held by a reference, a list
// naming a slot that holds no reference, an output of a picture not given or
// given twice). Each case runs in a worker under a watchdog, so a hang is
// reported with its seed instead of stopping the run. Pure TypeScript (no
// native code), so AddressSanitizer has nothing to check here.
//
// Plain node over the compiled package (npm run build:ts first):
//   node test/fuzz/h264-bitstream.mjs --seeds 1-5000
//   node test/fuzz/h264-bitstream.mjs --seeds 42 --verbose      (one case, what it did)
// test/video-h264-errors.test.ts runs 200 seeds in-process under vitest.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { mulberry32 } from '../helpers/random.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '../fixtures/h264');

/** The streams cases start from (the large ones less often: they are slow to copy, not to parse). */
export const fuzzStreams = [
  'ip-cavlc',
  'ip-cabac',
  'b-nopyramid',
  'b-pyramid',
  'slices4',
  'ref4',
  'ref16',
  'weighted',
  'cqm-custom',
  'hrd',
  'idr-only',
  'open-gop',
  'crop-350x198',
  'cbp',
  'fake-interlaced',
  'gaps',
  'poc-type1',
  'unsupported-mbaff',
  'unsupported-422',
  'unsupported-10bit',
];

export function loadStreams() {
  const out = new Map();
  for (const name of fuzzStreams) out.set(name, new Uint8Array(readFileSync(join(fixtures, `${name}.h264`))));
  out.set('b-pyramid.avcc', new Uint8Array(readFileSync(join(fixtures, 'b-pyramid.avcc'))));
  return out;
}

function concat(parts) {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const startCode = Uint8Array.of(0, 0, 0, 1);

/**
 * Makes case `seed`: returns { log, run(room) } where run feeds the damaged
 * stream to a sequencer built from `room` (lib/video/h264 or its compiled
 * dist) and returns the events, throwing what the room throws.
 */
export function makeCase(seed, streams) {
  const random = mulberry32(seed);
  const int = (n) => Math.floor(random() * n);
  const pick = (list) => list[int(list.length)];
  const log = [];
  const names = fuzzStreams;
  const first = pick(names);
  return {
    log,
    run(room) {
      let nals = room.splitAnnexB(streams.get(first)).map((n) => n.slice());
      log.push(`stream ${first} (${nals.length} NAL units)`);
      const mutations = 1 + int(4);
      for (let m = 0; m < mutations && nals.length > 0; m++) {
        const kind = int(9);
        const i = int(nals.length);
        if (kind <= 2) {
          // Bit flips, mostly within a NAL unit's first 24 bytes (the headers).
          const nal = nals[i];
          const flips = 1 + int(kind === 0 ? 3 : 12);
          for (let f = 0; f < flips; f++) {
            const pos = random() < 0.8 ? int(Math.min(24, nal.length)) : int(nal.length);
            nal[pos] ^= 1 << int(8);
          }
          log.push(`flip ${flips} bits in NAL ${i} (type ${nal[0] & 31})`);
        } else if (kind === 3) {
          const cut = int(nals[i].length);
          nals[i] = nals[i].subarray(0, cut);
          log.push(`truncate NAL ${i} to ${cut} bytes`);
        } else if (kind === 4) {
          const other = room.splitAnnexB(streams.get(pick(names)));
          const a = int(other.length);
          const len = 1 + int(Math.min(8, other.length - a));
          nals.splice(i, int(4), ...other.slice(a, a + len).map((n) => n.slice()));
          log.push(`splice ${len} NAL units of another stream at ${i}`);
        } else if (kind === 5) {
          nals.splice(i, 1 + int(3));
          log.push(`drop NAL units from ${i}`);
        } else if (kind === 6) {
          const j = int(nals.length);
          [nals[i], nals[j]] = [nals[j], nals[i]];
          log.push(`swap NAL ${i} and ${j}`);
        } else if (kind === 7) {
          nals.splice(i, 0, nals[i].slice());
          log.push(`repeat NAL ${i}`);
        } else {
          const junk = Uint8Array.from({ length: 1 + int(40) }, () => (random() < 0.3 ? 0 : int(256)));
          nals.splice(i, 0, junk);
          log.push(`insert ${junk.length} random bytes as NAL ${i}`);
        }
      }
      nals = nals.filter((n) => n.length > 0);
      const options = random() < 0.2 ? { maxSlots: 1 + int(17), maxWidth: 16 * (1 + int(40)), maxLevelIdc: 10 + int(52) } : undefined;
      const sequencer = new room.H264Sequencer(options);
      const events = [];
      const errors = [];
      // A typed error ends one call, not the case: the next NAL units go on (a decoder skips what it cannot use).
      const call = (fn) => {
        try {
          events.push(...fn());
        } catch (e) {
          if (!(e instanceof room.H264BitstreamError || e instanceof room.H264UnsupportedError)) throw e;
          errors.push(e);
        }
      };
      const feed = random();
      if (feed >= 0.9 && room.H264Input) return feedPackets(room, streams, nals, options, random, log, call, events, errors);
      if (feed < 0.5) {
        for (const nal of nals) call(() => sequencer.push(nal));
        log.push('fed NAL by NAL');
      } else if (feed < 0.8) {
        // Annex-B bytes, cut into random chunks, possibly truncated at the end.
        let bytes = concat(nals.flatMap((n) => [startCode, n]));
        if (random() < 0.3) bytes = bytes.subarray(0, int(bytes.length));
        // As the decoder reads: units across chunks in the splitter's one buffer, and each chunk's pictures copied
        // out (as into its bitstream ring) before their memory is reclaimed.
        const reuse = random() < 0.5;
        const splitter = new room.AnnexBSplitter({ reuseBuffer: reuse });
        const copiedOut = (from) => {
          if (!reuse) return;
          for (let i = from; i < events.length; i++)
            if (events[i].type === 'picture') events[i] = { ...events[i], picture: { ...events[i].picture, data: events[i].picture.data.slice() } };
          sequencer.reclaim();
        };
        for (let at = 0; at < bytes.length; ) {
          const size = 1 + int(random() < 0.5 ? 64 : 20000);
          const from = events.length;
          for (const nal of splitter.push(bytes.subarray(at, at + size))) call(() => sequencer.push(nal));
          copiedOut(from);
          at += size;
        }
        for (const nal of splitter.end()) call(() => sequencer.push(nal));
        log.push(`fed as Annex-B chunks${reuse ? ' (reused buffers, reclaimed after each chunk)' : ''}`);
      } else {
        // MP4: a damaged avcC, then samples of length-prefixed units, one access unit each.
        const avcc = streams.get('b-pyramid.avcc').slice();
        if (random() < 0.7) for (let f = 0, n = 1 + int(4); f < n; f++) avcc[int(avcc.length)] ^= 1 << int(8);
        const config = room.parseAvcC(avcc);
        for (const nal of [...config.sps, ...config.pps]) call(() => sequencer.push(nal));
        const size = config.nalLengthSize;
        for (const nal of nals) {
          const sample = new Uint8Array(size + nal.length);
          let length = random() < 0.05 ? int(2 ** (8 * size)) : nal.length;
          for (let b = size - 1; b >= 0; b--, length = Math.floor(length / 256)) sample[b] = length & 255;
          sample.set(nal, size);
          let units = [];
          call(() => {
            units = room.splitLengthPrefixed(sample, size);
            return [];
          });
          for (const unit of units) call(() => sequencer.push(unit));
          call(() => sequencer.endAccessUnit());
        }
        log.push(`fed as MP4 samples (${size}-byte lengths)`);
      }
      call(() => sequencer.flush());
      return { events, errors };
    },
  };
}

/**
 * As decode() reads packets: random groups of units (a packet should be one access unit; here not always) in Annex-B
 * or as MP4 samples, each with a timestamp, raw chunks between some, through H264Input. A picture's timestamp must be
 * one of a packet's, taken once; anything else is thrown as a failure.
 */
function feedPackets(room, streams, nals, options, random, log, call, events, errors) {
  const int = (n) => Math.floor(random() * n);
  const avcc = random() < 0.4;
  let input;
  try {
    input = new room.H264Input(avcc ? { format: 'avcc', extradata: streams.get('b-pyramid.avcc') } : undefined, options ?? {});
  } catch (e) {
    if (!(e instanceof room.H264BitstreamError || e instanceof room.H264UnsupportedError)) throw e;
    errors.push(e);
    return { events, errors };
  }
  const given = new Set();
  const take = (list) => {
    for (const e of list) {
      if (e.type !== 'picture') continue;
      const t = input.takeTimestamp(e.picture.decodeIndex);
      if (t !== undefined && !given.has(t)) throw new Error(`picture ${e.picture.decodeIndex} carries ${t}, no packet's timestamp`);
      if (input.takeTimestamp(e.picture.decodeIndex) !== undefined) throw new Error(`picture ${e.picture.decodeIndex}: its timestamp taken twice`);
    }
    return list;
  };
  const encode = (group) =>
    avcc
      ? concat(group.flatMap((n) => [Uint8Array.of(n.length >>> 24, (n.length >>> 16) & 255, (n.length >>> 8) & 255, n.length & 255), n]))
      : concat(group.flatMap((n) => [startCode, n]));
  let packets = 0;
  for (let i = 0; i < nals.length; ) {
    const group = nals.slice(i, i + 1 + int(4));
    i += group.length;
    if (!avcc && random() < 0.2) {
      call(() => take(input.push(encode(group))));
      continue;
    }
    const timestamp = random() < 0.5 ? packets + 0.25 : BigInt(packets * 1001);
    given.add(timestamp);
    packets++;
    call(() => take(input.push({ data: encode(group), timestamp })));
  }
  call(() => take(input.flush()));
  log.push(`fed as ${packets} packets with timestamps (${avcc ? 'avcC samples' : 'Annex-B'}) through H264Input`);
  return { events, errors };
}

/** Checks the records of a case's events; returns a message for the first broken one, or null. */
export function checkEvents(events, maxSlots = 17) {
  const given = new Set();
  const shown = new Set();
  for (const e of events) {
    if (e.type === 'picture') {
      const p = e.picture;
      if (given.has(p.decodeIndex)) return `picture ${p.decodeIndex} given twice`;
      given.add(p.decodeIndex);
      const held = p.references.map((r) => r.slot);
      if (new Set(held).size !== held.length) return `picture ${p.decodeIndex}: two references in one slot`;
      if (held.includes(p.setupSlot)) return `picture ${p.decodeIndex}: setup slot ${p.setupSlot} holds a reference`;
      if (!(p.setupSlot >= 0 && p.setupSlot < maxSlots)) return `picture ${p.decodeIndex}: setup slot ${p.setupSlot}`;
      for (const lists of [p.refPicList0, p.refPicList1])
        for (const list of lists)
          for (const slot of list) if (slot !== -1 && !held.includes(slot)) return `picture ${p.decodeIndex}: list names slot ${slot}`;
      let sum = 0;
      for (const s of p.slices) {
        if (p.data[s.offset] !== 0 || p.data[s.offset + 1] !== 0 || p.data[s.offset + 2] !== 1)
          return `picture ${p.decodeIndex}: no start code at a slice offset`;
        sum += s.size;
      }
      if (sum !== p.data.length) return `picture ${p.decodeIndex}: slices do not cover data`;
    } else if (e.type === 'output') {
      if (!given.has(e.decodeIndex)) return `output of picture ${e.decodeIndex} before (or without) it`;
      if (shown.has(e.decodeIndex)) return `picture ${e.decodeIndex} output twice`;
      shown.add(e.decodeIndex);
    } else return `unknown event ${JSON.stringify(e)}`;
  }
  return null;
}

/** Runs one case: { seed, outcome: 'ok' | 'typed' | 'failure', detail, ms }. */
export function runCase(seed, streams, room) {
  const c = makeCase(seed, streams);
  const start = performance.now();
  try {
    const { events, errors } = c.run(room);
    const broken = checkEvents(events);
    const ms = performance.now() - start;
    if (broken) return { seed, outcome: 'failure', detail: broken, log: c.log, ms };
    if (errors.length)
      return { seed, outcome: 'typed', detail: `${errors[0].name}: ${errors[0].message} (${errors.length} typed errors)`, log: c.log, ms };
    return { seed, outcome: 'ok', detail: `${events.length} events`, log: c.log, ms };
  } catch (e) {
    const typed = e instanceof room.H264BitstreamError || e instanceof room.H264UnsupportedError;
    return {
      seed,
      outcome: typed ? 'typed' : 'failure',
      detail: typed ? `${e.name}: ${e.message}` : String(e?.stack ?? e),
      log: c.log,
      ms: performance.now() - start,
    };
  }
}

function parseSeeds(text) {
  const seeds = [];
  for (const part of text.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new Error(`--seeds: '${part}' is not N or N-M`);
    for (let s = Number(m[1]); s <= Number(m[2] ?? m[1]); s++) seeds.push(s);
  }
  return seeds;
}

async function loadRoom() {
  const dist = resolve(here, '../../dist/video/h264/index.js');
  if (!existsSync(dist)) {
    console.error(`h264-bitstream: ${dist} is missing; build the package first (npm run build:ts)`);
    process.exit(2);
  }
  const { H264Input } = await import(pathToFileURL(resolve(here, '../../dist/video/h264-input.js')).href);
  return { ...(await import(pathToFileURL(dist).href)), H264Input };
}

if (!isMainThread && workerData?.h264Fuzz) {
  const room = await loadRoom();
  const streams = loadStreams();
  for (const seed of workerData.seeds) {
    parentPort.postMessage({ started: seed });
    parentPort.postMessage({ result: runCase(seed, streams, room) });
  }
} else if (isMainThread && process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const arg = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const seeds = parseSeeds(arg('--seeds', '1-500'));
  const verbose = args.includes('--verbose');
  const caseLimitMs = Number(arg('--case-limit-ms', '10000'));
  const parallel = Math.max(1, Number(arg('--parallel', '1')));
  await loadRoom();
  const counts = { ok: 0, typed: 0, failure: 0, hang: 0 };
  const reasons = new Map();
  let slowest = { ms: 0, seed: 0 };
  let totalMs = 0;
  const started = performance.now();
  const queue = [...seeds];
  const failures = [];
  async function lane() {
    while (queue.length) {
      const batch = queue.splice(0, 50);
      await new Promise((done) => {
        const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { h264Fuzz: true, seeds: batch } });
        let current = null;
        let timer = null;
        const arm = () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            counts.hang++;
            failures.push(`seed ${current}: no answer within ${caseLimitMs} ms (hang)`);
            const rest = batch.slice(batch.indexOf(current) + 1);
            queue.unshift(...rest);
            worker.terminate();
          }, caseLimitMs);
        };
        worker.on('message', (m) => {
          if (m.started !== undefined) {
            current = m.started;
            arm();
            return;
          }
          const r = m.result;
          counts[r.outcome]++;
          totalMs += r.ms;
          if (r.ms > slowest.ms) slowest = { ms: r.ms, seed: r.seed };
          if (r.outcome === 'typed') {
            const key = r.detail.replace(/\d+/g, 'N').slice(0, 90);
            reasons.set(key, (reasons.get(key) ?? 0) + 1);
          }
          if (r.outcome === 'failure') failures.push(`seed ${r.seed}: ${r.detail}\n    ${r.log.join('; ')}`);
          if (verbose) console.log(`seed ${r.seed}: ${r.outcome} (${r.ms.toFixed(1)} ms) ${r.detail}\n    ${r.log.join('; ')}`);
        });
        worker.on('error', (e) => {
          counts.failure++;
          failures.push(`seed ${current}: worker error ${e?.stack ?? e}`);
        });
        worker.on('exit', () => {
          clearTimeout(timer);
          done();
        });
      });
    }
  }
  await Promise.all(Array.from({ length: parallel }, lane));
  for (const f of failures) console.log(`FAIL ${f}`);
  const cases = counts.ok + counts.typed + counts.failure + counts.hang;
  console.log(
    `h264-bitstream: ${cases} cases in ${((performance.now() - started) / 1000).toFixed(1)} s: ${counts.ok} decoded through, ${counts.typed} typed errors, ${counts.failure} failures, ${counts.hang} hangs; ` +
      `mean ${(totalMs / Math.max(1, cases)).toFixed(2)} ms a case, slowest ${slowest.ms.toFixed(0)} ms (seed ${slowest.seed})`,
  );
  if (verbose || args.includes('--reasons'))
    for (const [k, n] of [...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${n}x ${k}`);
  process.exit(counts.failure + counts.hang > 0 ? 1 : 0);
}
