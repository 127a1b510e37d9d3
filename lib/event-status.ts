// What the statuses and command types of events are called: the execution
// statuses under their names, the spec names of CL_COMMAND_* types, and the
// command types the sharing extensions add (lib/event.ts, lib/command-event.ts).
import { CL } from './facts/cl-constants';

export type ExecutionStatus = 'queued' | 'submitted' | 'running' | 'complete';

/** @internal */
export const statusCodes: Record<ExecutionStatus, number> = {
  complete: CL.CL_COMPLETE,
  running: CL.CL_RUNNING,
  submitted: CL.CL_SUBMITTED,
  queued: CL.CL_QUEUED,
};

/** A command's status is CL_COMPLETE or one of the running states above it, or the negative error code it failed with. */
export function hasFailed(status: number): boolean {
  return status < CL.CL_COMPLETE;
}

/** @internal */
export function statusName(code: number): ExecutionStatus | number {
  const entry = Object.entries(statusCodes).find(([, value]) => value === code);
  return entry ? (entry[0] as ExecutionStatus) : code;
}

const commandTypeNames = new Map<number, string>(
  Object.entries(CL)
    .filter(([name]) => name.startsWith('CL_COMMAND_'))
    .map(([name, value]) => [value, name]),
);

// Extension command types; NV D3D9 and Intel DX9 share values, so an event
// made by an extension is named by that extension first.
const extensionCommandTypes = new Map<string, Map<number, string>>();

/** @internal Extensions add their command types (acquire/release) here. */
export function registerCommandTypes(extension: string, names: Record<string, number>): void {
  const own = new Map<number, string>();
  for (const [name, value] of Object.entries(names)) {
    own.set(value, name);
    const previous = commandTypeNames.get(value);
    commandTypeNames.set(value, previous && !previous.split(' | ').includes(name) ? `${previous} | ${name}` : name);
  }
  extensionCommandTypes.set(extension, own);
}

/** @internal The spec name of a command type, the extension's own first (for an event made by `extension`). */
export function commandTypeName(type: number, extension: string | undefined): string {
  const own = extension ? extensionCommandTypes.get(extension)?.get(type) : undefined;
  return own ?? commandTypeNames.get(type) ?? `0x${type.toString(16)}`;
}
