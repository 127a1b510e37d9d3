// Which decode queue each frame of each decoder goes to. A decode queue runs
// its frames one after the other, and a stream's frames depend on each other,
// so a decoder keeps to one queue of its own (the one fewest live decoders
// own). With more decoders than queues (8 on the H200's 7), fixed queues make
// two decoders share one engine for the whole run, and the run ends at their
// pace; decoders made with `queues: 'shared'` (the default) then move: a
// decoder with frames in flight sends its next frame to the same queue (when
// it has room: at most PER_QUEUE frames in flight a queue, so that a frame
// never waits long behind another stream's), and one with none in flight to
// the least loaded queue with room; when no queue has room, the decoders that
// have submitted the fewest frames go first as soon as one has. Decoders take
// turns sharing a queue: one that shares its queue while a decoder alone on
// another is more than LEAD frames ahead stops, and moves there once its
// frames are done (#movesFor), so that every engine works to the end and the
// streams keep level. A decoder changes queue only once its frames are done,
// so nothing on the GPU waits on
// another decode queue: on NVIDIA (driver 580) decodes chained across queues
// by semaphores stopped the GPU. A spare queue (one no other decoder owns,
// with nothing in flight) may take a shared decoder's next coded video
// sequence while its last one still decodes (takeSpare()).
//
// Each thread has its own video device and DecodeQueues, but every VkDevice
// made on a GPU decodes on the same engines (on NVIDIA, queue i of each on
// engine i): the owners and frames in flight of the whole process, counted
// across threads (QueueUse), decide which queue a new decoder owns and which
// are spare; among equals a process starts at its own place (its process id),
// so that processes too tend to different engines.
import { VideoDecoderDisposedError } from './errors';

/** How the decoders of the whole process use a device's decode queues (native/video/decode_queue_registry.cc). */
export interface QueueUse {
  /** Adds to a queue's owners and frames in flight. */
  add(queue: number, owners: number, inFlight: number): void;
  /** [owners of queue 0, frames in flight on queue 0, owners of queue 1, ...], every thread's. */
  counts(): Int32Array;
}

/** A QueueUse of one thread only (a stand-in where nothing else shares the queues). */
export function threadQueueUse(count: number): QueueUse {
  const counts = new Int32Array(2 * count);
  return {
    add(queue, owners, inFlight) {
      counts[2 * queue]! += owners;
      counts[2 * queue + 1]! += inFlight;
    },
    counts: () => counts.slice(),
  };
}

/** One decoder's part. */
export interface DecodeQueueClient {
  /**
   * Its own queue (where its frames go while the device has no more decoders than queues). A shared decoder
   * sharing it with another takes over a queue a leaving decoder owned.
   */
  own: number;
  /** The queue of its last frame. */
  lastQueue: number;
  /** Its frames in flight. */
  inFlight: number;
  /** Its frames submitted so far. */
  submitted: number;
  /** Whether its frames may go to any queue while decoders outnumber queues. */
  readonly shared: boolean;
  /** Whether it waits for its frames in flight to be done, to move to another queue. */
  moving: boolean;
  left: boolean;
}

interface Waiter {
  readonly client: DecodeQueueClient;
  readonly resolve: (queue: number) => void;
  readonly reject: (error: unknown) => void;
}

/** The decode queues of one video device, shared by its decoders (JavaScript thread). */
export class DecodeQueues {
  /**
   * Frames in flight on one queue while decoders share the queues. More lets a decoder sit longer on a queue it
   * shares: on the H200, 8 decoders at 1080p decoded 3600 frames/s with 2 and about 2700 with 3 or 4 (before they
   * took turns).
   */
  static readonly PER_QUEUE = 2;
  /**
   * How many frames a decoder sharing its queue may fall behind one decoding alone before they change places (each
   * change lets the moving decoder's frames in flight finish first).
   */
  static readonly LEAD = 8;
  readonly count: number;
  readonly #load: number[];
  readonly #clients = new Set<DecodeQueueClient>();
  #waiting: Waiter[] = [];
  readonly #use: QueueUse;
  readonly #first: number;

  /** `use`: the process's use of the queues (default: this thread's only); `first`: where ties start (a queue). */
  constructor(count: number, use: QueueUse = threadQueueUse(count), first = 0) {
    this.count = count;
    this.#load = new Array<number>(count).fill(0);
    this.#use = use;
    this.#first = first % count;
  }

  /** Frames in flight on each queue. */
  get load(): readonly number[] {
    return this.#load;
  }

  /** Whether decoders outnumber queues (frames then go wherever there is room). */
  get spread(): boolean {
    return this.#clients.size > this.count;
  }

  /**
   * A new decoder: its own queue is the one fewest live decoders of the process own (then the one with the fewest
   * frames in flight; among equals the first from this process's place).
   */
  join(shared: boolean): DecodeQueueClient {
    const counts = this.#use.counts();
    let own = this.#first;
    for (let i = 1; i < this.count; i++) {
      const q = (this.#first + i) % this.count;
      const [owners, best] = [counts[2 * q]!, counts[2 * own]!];
      if (owners < best || (owners === best && counts[2 * q + 1]! < counts[2 * own + 1]!)) own = q;
    }
    const client: DecodeQueueClient = { own, lastQueue: own, inFlight: 0, submitted: 0, shared, moving: false, left: false };
    this.#clients.add(client);
    this.#use.add(own, 1, 0);
    return client;
  }

  /** A decoder is gone: its waits end (VideoDecoderDisposedError); its frames in flight still give their queues back. */
  leave(client: DecodeQueueClient): void {
    if (client.left) return;
    client.left = true;
    this.#clients.delete(client);
    this.#use.add(client.own, -1, 0);
    this.#handOver(client.own);
    const gone = this.#waiting.filter((w) => w.client === client);
    this.#waiting = this.#waiting.filter((w) => w.client !== client);
    for (const w of gone) w.reject(new VideoDecoderDisposedError());
    this.#serve();
  }

  /** The queue the client's next frame goes to, taken (give() it back when the frame is done or was not submitted). */
  take(client: DecodeQueueClient): number | Promise<number> {
    if (client.left) throw new VideoDecoderDisposedError();
    const queue = this.#pick(client);
    if (queue >= 0) return this.#taken(client, queue);
    return new Promise<number>((resolve, reject) => this.#waiting.push({ client, resolve, reject }));
  }

  /** Whether the device has a queue besides the client's own that no other live decoder owns (and `client` is shared). */
  hasSpare(client: DecodeQueueClient): boolean {
    if (!client.shared || this.spread) return false;
    const counts = this.#use.counts();
    for (let q = 0; q < this.count; q++) if (counts[2 * q] === 0) return true;
    return false;
  }

  /**
   * A queue no other live decoder owns and with nothing in flight, other than the client's last, taken for its next
   * frame (which starts a new coded video sequence on a session of its own); -1 when there is none.
   */
  takeSpare(client: DecodeQueueClient): number {
    if (client.left) throw new VideoDecoderDisposedError();
    if (!client.shared || this.spread) return -1;
    const counts = this.#use.counts();
    for (let q = 0; q < this.count; q++) {
      if (q === client.lastQueue || counts[2 * q + 1]! > 0) continue;
      if (counts[2 * q]! - (client.own === q ? 1 : 0) > 0) continue;
      return this.#taken(client, q);
    }
    return -1;
  }

  /** A frame taken on `queue` is done (or was never submitted). */
  give(client: DecodeQueueClient, queue: number): void {
    this.#load[queue]!--;
    this.#use.add(queue, 0, -1);
    client.inFlight--;
    this.#serve();
  }

  /** A frame was submitted on the queue it took. */
  submitted(client: DecodeQueueClient, queue: number): void {
    client.lastQueue = queue;
    client.submitted++;
  }

  #taken(client: DecodeQueueClient, queue: number): number {
    this.#load[queue]!++;
    this.#use.add(queue, 0, 1);
    client.inFlight++;
    return queue;
  }

  /** A queue with room for the client's next frame, or -1. */
  #pick(client: DecodeQueueClient): number {
    const last = client.lastQueue;
    // A decoder with frames in flight stays on their queue (nothing orders its frames across queues).
    if (!this.spread || !client.shared) {
      client.moving = false;
      return client.inFlight > 0 ? last : client.own;
    }
    const load = this.#load;
    const cap = DecodeQueues.PER_QUEUE;
    const moves = this.#movesFor(client);
    if (client.inFlight > 0) {
      // It stops here, and moves once its frames are done (another decoder keeps this queue busy meanwhile).
      client.moving = moves.length > 0;
      return !client.moving && load[last]! < cap ? last : -1;
    }
    client.moving = false;
    // Any of them with room: waiting for one in particular could starve it.
    if (moves.length > 0) return moves.find((q) => load[q]! < cap) ?? -1;
    if (load[last]! < cap && load[last]! <= Math.min(...load)) return last;
    let best = -1;
    for (let q = 0; q < this.count; q++) if (load[q]! < cap && (best < 0 || load[q]! < load[best]!)) best = q;
    return best;
  }

  /**
   * Where a shared decoder that shares its last queue with another should go instead, best first: the queues no
   * decoder is decoding on, then those whose only decoder is further ahead of it than LEAD frames (the furthest
   * first), so that the decoders take turns sharing a queue and keep level. Empty: it stays.
   */
  #movesFor(client: DecodeQueueClient): number[] {
    const tenants = new Array<number>(this.count).fill(0);
    const ahead = new Array<number>(this.count).fill(-1);
    for (const c of this.#clients) {
      if (c === client || c.inFlight === 0 || c.moving) continue;
      tenants[c.lastQueue]!++;
      ahead[c.lastQueue] = Math.max(ahead[c.lastQueue]!, c.submitted);
    }
    if (tenants[client.lastQueue] === 0) return [];
    const idle: number[] = [];
    const behind: number[] = [];
    for (let q = 0; q < this.count; q++) {
      if (q === client.lastQueue) continue;
      if (tenants[q] === 0) idle.push(q);
      else if (tenants[q] === 1 && ahead[q]! > client.submitted + DecodeQueues.LEAD) behind.push(q);
    }
    // Array.prototype.sort is stable: among equals, the lower queue first.
    return [...idle, ...behind.sort((p, q) => ahead[q]! - ahead[p]!)];
  }

  /** `queue` lost an owner: if no decoder owns it now, a shared decoder of a queue that two own takes it. */
  #handOver(queue: number): void {
    const owners = [...this.#clients].filter((c) => c.own === queue);
    if (owners.length > 0) return;
    for (const c of this.#clients)
      if (c.shared && [...this.#clients].some((o) => o !== c && o.own === c.own)) {
        this.#use.add(c.own, -1, 0);
        this.#use.add(queue, 1, 0);
        c.own = queue;
        return;
      }
  }

  /** Hands queues with room to the waiting decoders, those with the fewest frames submitted first. */
  #serve(): void {
    if (this.#waiting.length === 0) return;
    this.#waiting.sort((a, b) => a.client.submitted - b.client.submitted);
    const still: Waiter[] = [];
    for (const w of this.#waiting) {
      const queue = this.#pick(w.client);
      if (queue >= 0) w.resolve(this.#taken(w.client, queue));
      else still.push(w);
    }
    this.#waiting = still;
  }
}
