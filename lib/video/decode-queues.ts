// Which decode queue each frame of each decoder goes to. A decode queue runs
// its frames one after the other, and a stream's frames depend on each other,
// so a decoder keeps to one queue of its own (the one fewest live decoders
// own). With more decoders than queues (8 on the H200's 7), fixed queues make
// two decoders share one engine for the whole run, and the run ends at their
// pace; decoders made with `queues: 'shared'` then send every frame to a
// queue with room (at most
// PER_QUEUE frames in flight on a queue, so that a frame never waits long
// behind a frame of a stream that is itself waiting), the decoder's last
// queue first, and when no queue has room the decoders that have submitted
// the fewest frames go first as soon as one has. The native side keeps a
// stream in order across queues with a timeline semaphore per decoder; on a
// device without timeline semaphores a decoder changes queue only when none
// of its frames is in flight.
import { VideoDecoderDisposedError } from './errors';

/** One decoder's part. */
export interface DecodeQueueClient {
  /** Its own queue (where its frames go while the device has no more decoders than queues). */
  readonly own: number;
  /** The queue of its last frame. */
  lastQueue: number;
  /** Its frames in flight. */
  inFlight: number;
  /** Its frames submitted so far. */
  submitted: number;
  /** Whether its frames may go to any queue while decoders outnumber queues. */
  readonly shared: boolean;
  left: boolean;
}

interface Waiter {
  readonly client: DecodeQueueClient;
  readonly resolve: (queue: number) => void;
  readonly reject: (error: unknown) => void;
}

/** The decode queues of one video device, shared by its decoders (JavaScript thread). */
export class DecodeQueues {
  /** Frames in flight on one queue while decoders share the queues. */
  static readonly PER_QUEUE = 2;
  readonly count: number;
  /** Whether the device chains a decoder's frames across queues (timeline semaphores). */
  readonly timeline: boolean;
  readonly #load: number[];
  readonly #clients = new Set<DecodeQueueClient>();
  #waiting: Waiter[] = [];

  constructor(count: number, timeline: boolean) {
    this.count = count;
    this.timeline = timeline;
    this.#load = new Array<number>(count).fill(0);
  }

  /** Frames in flight on each queue. */
  get load(): readonly number[] {
    return this.#load;
  }

  /** Whether decoders outnumber queues (frames then go wherever there is room). */
  get spread(): boolean {
    return this.#clients.size > this.count;
  }

  /** A new decoder: its own queue is the one fewest live decoders own. */
  join(shared: boolean): DecodeQueueClient {
    const owners = new Array<number>(this.count).fill(0);
    for (const c of this.#clients) owners[c.own]!++;
    let own = 0;
    for (let q = 1; q < this.count; q++) if (owners[q]! < owners[own]!) own = q;
    const client: DecodeQueueClient = { own, lastQueue: own, inFlight: 0, submitted: 0, shared, left: false };
    this.#clients.add(client);
    return client;
  }

  /** A decoder is gone: its waits end (VideoDecoderDisposedError); its frames in flight still give their queues back. */
  leave(client: DecodeQueueClient): void {
    if (client.left) return;
    client.left = true;
    this.#clients.delete(client);
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

  /** A frame taken on `queue` is done (or was never submitted). */
  give(client: DecodeQueueClient, queue: number): void {
    this.#load[queue]!--;
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
    client.inFlight++;
    return queue;
  }

  /** A queue with room for the client's next frame, or -1. */
  #pick(client: DecodeQueueClient): number {
    if (!this.spread || !client.shared) return client.own;
    const load = this.#load;
    const cap = DecodeQueues.PER_QUEUE;
    const last = client.lastQueue;
    if (!this.timeline && client.inFlight > 0) return load[last]! < cap ? last : -1;
    const least = Math.min(...load);
    if (load[last]! < cap && load[last]! <= least) return last;
    let best = -1;
    for (let q = 0; q < this.count; q++) if (load[q]! < cap && (best < 0 || load[q]! < load[best]!)) best = q;
    return best;
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
