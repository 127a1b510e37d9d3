// Types of xvfb.mjs (the VA tests import it).
export interface Xvfb {
  /** The display name, e.g. ':7'. */
  display: string;
  stop(): Promise<void>;
}
/** Starts Xvfb on a display number of its own (see xvfb.mjs). */
export function startXvfb(): Promise<Xvfb>;
