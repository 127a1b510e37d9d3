#!/usr/bin/env python3
"""The sequences of bench/opencl_bench.c made through pyopencl, for the
pyopencl column of bench/run.mjs. Prints one JSON object like the C binary's.

  python3 bench/pyopencl_bench.py [--platform NAME] [--iterations N]
                                  [--big-iterations N] [--repeats R] [--only SEQUENCE]

Sequences pyopencl has no counterpart for (awaiting in an event loop) are
left out of "results"; run.mjs shows them as n/a. Exit status 3 when pyopencl
cannot be imported (run.mjs then leaves the column out).
"""
import argparse
import json
import sys
import threading
import time

try:
    import numpy as np
    import pyopencl as cl
except ImportError as error:
    print(f"pyopencl_bench: {error}", file=sys.stderr)
    sys.exit(3)

# Keep identical to kKernelSource in bench/opencl_bench.c (run.mjs checks it).
KERNEL_SOURCE = (
    "__kernel void tiny(__global float* data, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  data[i] = data[i] * 0.5f + a;\n"
    "}\n"
)
GLOBAL_SIZE = 64
WRITE_BYTES = 4096
BIG_BYTES = 64 << 20
PAGE = 4096


def page_aligned(size):
    """A numpy byte array whose data starts on a page boundary."""
    raw = np.empty(size + PAGE, dtype=np.uint8)
    offset = -raw.ctypes.data % PAGE
    return raw[offset : offset + size]


class Bench:
    def __init__(self, platform):
        device = platform.get_devices()[0]
        self.device_name = device.name
        self.context = cl.Context([device])
        self.queue = cl.CommandQueue(self.context, device)
        self.kernel = cl.Program(self.context, KERNEL_SOURCE).build().tiny
        flags = cl.mem_flags.READ_WRITE
        self.buffer = cl.Buffer(self.context, flags, GLOBAL_SIZE * 4)
        self.write_target = cl.Buffer(self.context, flags, WRITE_BYTES)
        self.host = np.arange(WRITE_BYTES // 4, dtype=np.float32)
        self.a = np.float32(1.5)
        self.kernel.set_arg(0, self.buffer)
        self.kernel.set_arg(1, self.a)
        self.queue.finish()
        self.big_target = None

    def setup_big(self):
        self.big_target = cl.Buffer(self.context, cl.mem_flags.READ_WRITE, BIG_BYTES)
        self.big_aligned = page_aligned(BIG_BYTES)
        self.big_plain = np.empty(BIG_BYTES, dtype=np.uint8)
        self.big_aligned.fill(1)  # touch every page now, as the C side
        self.big_plain.fill(1)

    # An event is released when its Python object goes (at once: reference counting).
    def setarg_enqueue_ns(self, n):
        for _ in range(n):
            self.kernel.set_arg(0, self.buffer)
            self.kernel.set_arg(1, self.a)
            cl.enqueue_nd_range_kernel(self.queue, self.kernel, (GLOBAL_SIZE,), None)
        self.queue.finish()

    def enqueue_wait_ns(self, n):
        for _ in range(n):
            cl.enqueue_nd_range_kernel(self.queue, self.kernel, (GLOBAL_SIZE,), None).wait()

    def event_callback_ns(self, n):
        done = threading.Event()
        complete = cl.command_execution_status.COMPLETE
        for _ in range(n):
            done.clear()
            event = cl.enqueue_nd_range_kernel(self.queue, self.kernel, (GLOBAL_SIZE,), None)
            event.set_callback(complete, lambda status: done.set())
            self.queue.flush()
            done.wait()

    def write_4k_blocking_ns(self, n):
        for _ in range(n):
            cl.enqueue_copy(self.queue, self.write_target, self.host, is_blocking=True)

    def _transfer_64m(self, n, read, blocking):
        host = self.big_plain if blocking else self.big_aligned
        for _ in range(n):
            if read:
                event = cl.enqueue_copy(self.queue, host, self.big_target, is_blocking=blocking)
            else:
                event = cl.enqueue_copy(self.queue, self.big_target, host, is_blocking=blocking)
            if not blocking:
                event.wait()

    def write_64m_ns(self, n):
        self._transfer_64m(n, read=False, blocking=False)

    def read_64m_ns(self, n):
        self._transfer_64m(n, read=True, blocking=False)

    def write_64m_blocking_ns(self, n):
        self._transfer_64m(n, read=False, blocking=True)

    def read_64m_blocking_ns(self, n):
        self._transfer_64m(n, read=True, blocking=True)


SEQUENCES = [
    ("setarg_enqueue_ns", False),
    ("enqueue_wait_ns", False),
    ("event_callback_ns", False),
    ("write_4k_blocking_ns", False),
    ("write_64m_ns", True),
    ("read_64m_ns", True),
    ("write_64m_blocking_ns", True),
    ("read_64m_blocking_ns", True),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--platform", default=None)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--big-iterations", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()

    platforms = cl.get_platforms()
    platform = next((p for p in platforms if not args.platform or args.platform in p.name), None)
    if platform is None:
        print(f'pyopencl_bench: no platform whose name contains "{args.platform}"', file=sys.stderr)
        sys.exit(1)
    bench = Bench(platform)
    warmup = max(50, args.iterations // 10)  # the C side's rule
    big_warmup = max(2, args.big_iterations // 10)

    results, samples = {}, {}
    for key, big in SEQUENCES:
        if args.only and args.only != key:
            continue
        if big and bench.big_target is None:
            bench.setup_big()
        run = getattr(bench, key)
        n = args.big_iterations if big else args.iterations
        run(big_warmup if big else warmup)
        samples[key] = []
        for _ in range(args.repeats):
            t0 = time.perf_counter_ns()
            run(n)
            samples[key].append(round((time.perf_counter_ns() - t0) / n, 1))
        results[key] = sorted(samples[key])[len(samples[key]) // 2] if args.repeats % 2 else (
            sum(sorted(samples[key])[args.repeats // 2 - 1 : args.repeats // 2 + 1]) / 2
        )

    json.dump(
        {
            "platform": platform.name,
            "device": bench.device_name,
            "pyopencl": cl.VERSION_TEXT,
            "python": sys.version.split()[0],
            "iterations": args.iterations,
            "big_iterations": args.big_iterations,
            "repeats": args.repeats,
            "kernel": KERNEL_SOURCE,
            "results": results,
            "samples": samples,
        },
        sys.stdout,
    )
    print()


if __name__ == "__main__":
    main()
