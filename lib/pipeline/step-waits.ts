// How a FramePipeline run waits for its steps' promises (a host producer's or
// consumer's, the process step's, onConsumed's): never for ever, since
// dispose() ends the waits and options.stepTimeout bounds each.
import { FramePipelineDisposedError } from './errors';

/**
 * The waits of one run for its steps' promises: each ends when its promise
 * settles, when options.stepTimeout passes (a TimeoutError), or when stop()
 * (dispose()) ends the run (`stopped`); a late result is dropped.
 */
export class StepWaits {
  /** What a wait rejects with once stop() ran: passed on as it is, never made a FrameStepError. */
  readonly stopped = new FramePipelineDisposedError('the FramePipeline was disposed during run()');
  readonly #timeout: number | undefined;
  readonly #pending = new Set<(error: unknown) => void>();
  #stopping = false;

  constructor(timeout: number | undefined) {
    this.#timeout = timeout;
  }

  /** Ends every wait now, and each later one as soon as what has settled has had its turn. */
  stop(): void {
    this.#stopping = true;
    for (const stop of [...this.#pending]) stop(this.stopped);
  }

  /** Awaits a step's promise (a thenable is read once, as Promise.resolve reads it). */
  guard<T>(promise: PromiseLike<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const pending = this.#pending;
      const timeout = this.#timeout;
      let timer: NodeJS.Timeout | undefined;
      const end = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        pending.delete(stop);
      };
      const stop = (error: unknown): void => {
        end();
        reject(error);
      };
      pending.add(stop);
      if (timeout !== undefined) {
        const late = `the step did not settle within ${timeout} ms (options.stepTimeout); its late result is dropped`;
        timer = setTimeout(() => stop(new DOMException(late, 'TimeoutError')), timeout);
      }
      // Stopped already: what has settled still wins (its reaction runs first).
      if (this.#stopping) setImmediate(() => stop(this.stopped));
      Promise.resolve(promise).then(
        (value) => {
          end();
          resolve(value);
        },
        (error: unknown) => {
          end();
          reject(error);
        },
      );
    });
  }
}
