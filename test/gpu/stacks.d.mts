/** A /proc file's text, trimmed; empty when it cannot be read (the process or thread has ended). */
export function readProc(path: string): string;
/** What each thread of a process is blocked in, from /proc, without stopping it. */
export function threadsOf(pid: number): string;
/** A hung process's threads from /proc, then every thread's stack through gdb or cuda-gdb. */
export function stacksOf(pid: number): Promise<string>;
/** Runs `file args` under gdb or cuda-gdb and returns what the debugger printed. */
export function stacksUnderDebugger(file: string, args: string[], cwd: string, timeoutMs?: number, env?: NodeJS.ProcessEnv): Promise<string>;
