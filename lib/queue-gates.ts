// The user events a queue's commands are behind, as the queue keeps track of
// them (lib/queue.ts, submit()): the cross-queue waits noted on them, failed
// ones pruned once the driver has ended the commands behind them, and the
// blocking calls refused behind a failed one before the driver.
import type { Event, Gate } from './event';
import { OpenCLError } from './errors';
import { CL } from './facts/cl-constants';
import { STATUS } from './facts/cl-status';
import type { QueueLink } from './links';

/** Tells the unset user events behind a command of another queue that `waiter` waits on it (UserEvent.noteCrossQueueWait). */
export function noteCrossQueueWaits(waitFor: readonly Event[], waiter: QueueLink): void {
  for (const event of waitFor) {
    const owner = event.queue;
    if (owner === undefined || owner === waiter || event.gates.length === 0) continue;
    for (const gate of event.unsetGates()) gate.noteCrossQueueWait(owner);
  }
}

/**
 * A failed user event stays among the gates later commands inherit only while a command of the queue behind it
 * (among `events`) has not ended in its driver (a later command of an in-order queue then waits on that command, so
 * it is behind the failure too); once the driver has ended them all, later commands are not. Returns `gates` itself
 * when nothing goes.
 */
export function pruneFailedGates(gates: readonly Gate[], events: readonly Event[]): readonly Gate[] {
  if (!gates.some((gate) => gate.state === 'failed')) return gates;
  const kept = gates.filter((gate) => gate.state !== 'failed' || events.some((event) => event.gates.includes(gate) && pendingInDriver(event)));
  return kept.length === gates.length ? gates : kept;
}

/** Whether the driver may still run the command (an event released or retired: it cannot be asked, and counts as ended). */
function pendingInDriver(event: Event): boolean {
  if (event.released || event.handleGone) return false;
  try {
    return event.statusCode() > CL.CL_COMPLETE;
  } catch {
    return false;
  }
}

/** A blocking call behind a failed user event ends at once, before the driver: the binding counts the command failed. */
export function refuseBehindFailed(gates: readonly Gate[], call: string): void {
  const failed = gates.find((gate) => gate.state === 'failed');
  if (failed === undefined) return;
  throw new OpenCLError(
    STATUS.CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
    call,
    `the command would wait on ${failed.describe()}, through an earlier command of this queue or an event in waitFor, so it has failed before it was enqueued`,
  );
}

/** finishSync() while a command of the queue is behind a failed user event its driver has not ended: it ends at once. */
export function refuseFinishBehindFailed(gates: readonly Gate[]): void {
  const failed = gates.find((gate) => gate.state === 'failed');
  if (failed === undefined) return;
  throw new OpenCLError(
    STATUS.CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
    'clFinish',
    `finishSync(): a command on this queue waits on ${failed.describe()}, so it failed (and the commands behind it); its driver has not ended it yet, and may never (PoCL)`,
  );
}
