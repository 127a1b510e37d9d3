#!/usr/bin/env bash
# The third 2026-11-27 session's runs on four GPUs, two calls of under 10 minutes each
# (docs/testing.md, bench/README.md):
#
#   OUT=/tmp/gpu-out SEEDS="46-73 74-75,85-86,120,122-144 145-150,158-159,193-212" GPU0_SEEDS=213-225 \
#     bash scripts/gpu/device.sh bash scripts/gpu/finish-run.sh suite
#     GPUs 1-3 fuzz SEEDS (one range per GPU) while GPU 0 runs the suite files that had not run there
#     (external-mistakes, maps-events), then the proof with 1000 lifetime cycles beside the fuzzers (once it
#     did not finish in 5 minutes under that load: with a limit, every thread's stack), then GPU0_SEEDS.
#     FILES (default external-mistakes,maps-events) and SUITE_LIMIT (seconds, default 330) pick the suite files and
#     their limit; NO_PROOF=1 skips the proof. The fifth session: FILES=exit-alive,exit-acquired,external-mistakes
#     NO_PROOF=1 SEEDS="1-75 76-150 151-225" GPU0_SEEDS=226-300 LIMIT=540.
#
#   OUT=/tmp/gpu-out SEEDS="..." bash scripts/gpu/device.sh bash scripts/gpu/finish-run.sh bench
#     the benches alone first (worker threads against processes with the main loop's delay; the pipeline on
#     two GPUs, both modes, the C program as the anchor), then every GPU fuzzes SEEDS.
#
#   OUT=/tmp/gpu-out [COMPARE_ADDON=.gpu-compare/opencl_interop.node] bash scripts/gpu/device.sh bash scripts/gpu/finish-run.sh workers
#     issue 23 item 5 on 4 GPUs, alone: bench/workers.mjs (Node and C) with waiting threads, then with callbacks,
#     then (COMPARE_ADDON) Node's side again with another build of the addon; then the await's cost (bench/run.mjs)
#     and the two-GPU pipeline with a worker per GPU.
#
#   OUT=/tmp/gpu-out bash scripts/gpu/device.sh bash scripts/gpu/finish-run.sh streams4
#     issue 23 item 5, longer runs of 4 streams (10000 commands, median of 5): on 4 GPUs, on one, and with V8's
#     platform pool at 16 threads.
#
#   OUT=/tmp/gpu-out bash scripts/gpu/device.sh bash scripts/gpu/finish-run.sh handoff
#     issue 23 item 5: C's streams with the package's driver calls and thread hops (bench/workers_c.c --wait
#     handoff), threads against processes, beside Node's workers; on 4 GPUs and on one.
#
#   OUT=/tmp/gpu-out bash scripts/gpu/device.sh bash scripts/gpu/finish-run.sh exits
#     (for the next session) exit-alive (which thing left alive at the end keeps NVIDIA's process from exiting) and
#     external-mistakes, whose item 4 and 5 processes printed everything and then did not exit while 12 fuzzers ran
#     on the other GPUs, alone on GPU 0: once as they are, once with OPENCL_INTEROP_VULKAN_UNPINNED=1 (is it the
#     Vulkan pin?), every stuck one reported with its threads from /proc and its stacks. Then SEEDS, if given, fuzz
#     on GPUs 1-3 while the two files run again on GPU 0 (is it the load?). PASSES="pinned" (or "unpinned") runs one
#     pass of the two: each pass may take up to 9 minutes where processes stay.
#
# LIMIT (seconds, default 560) bounds the fuzzing of either part.
set -u; mkdir -p "$OUT"
part=${1:?suite, bench, exits, workers, streams4, handoff or teardown}
limit=${LIMIT:-560}
started=$(date +%s)
left() { echo $(( limit - ($(date +%s) - started) )); }
# The runs of streams4 and handoff (STREAMS streams): the command's log in "$OUT/<part>-<name>.log", its table and
# summary lines printed.
streams_run() { # name, then the command
  local log="$OUT/$part-$1.log" name=$1; shift
  timeout 150 "$@" > "$log" 2>&1
  echo "$name exit $?" >> "$log"
  grep -E "^(platform|streams|[0-9]+ \||spread|main loop|per command)|exit" "$log"
}
streams_args=(bench/workers.mjs --platform NVIDIA --streams "${STREAMS:-4}" --commands 10000 --repeats 5)

case "$part" in
suite)
  GPUS="1 2 3" LIMIT=$limit bash scripts/gpu/fuzz-gpus.sh > "$OUT/fuzz.txt" 2>&1 &
  fuzzing=$!
  CUDA_VISIBLE_DEVICES=0 node scripts/gpu/test.mjs --only suite --files "${FILES:-external-mistakes,maps-events}" \
    --step-limit "${SUITE_LIMIT:-330}" > "$OUT/suite.log" 2>&1
  echo "suite exit $?" >> "$OUT/suite.log"
  if [ -z "${NO_PROOF:-}" ]; then
    CUDA_VISIBLE_DEVICES=0 node scripts/gpu/test.mjs --only proof --proof-cycles 1000 --step-limit 120 > "$OUT/proof.log" 2>&1
    echo "proof exit $?" >> "$OUT/proof.log"
  fi
  if [ -n "${GPU0_SEEDS:-}" ] && [ "$(left)" -gt 60 ]; then
    mkdir -p "$OUT/gpu0"
    OUT="$OUT/gpu0" GPUS=0 SEEDS=$GPU0_SEEDS LIMIT=$(left) bash scripts/gpu/fuzz-gpus.sh > "$OUT/fuzz-gpu0.txt" 2>&1
  fi
  wait "$fuzzing"
  grep -E "ok  |FAIL|exit|passed|failed|not ok" "$OUT/suite.log" | tail -40
  grep -E "cycles of|HOLDS|FAIL|still running|exit" "$OUT/proof.log" | tail -8
  cat "$OUT/fuzz.txt" "$OUT/fuzz-gpu0.txt" 2>/dev/null
  ;;
bench)
  timeout 150 node bench/workers.mjs --platform NVIDIA --streams 1,2,4 > "$OUT/workers.log" 2>&1
  echo "workers exit $?" >> "$OUT/workers.log"
  timeout 150 node bench/multi-gpu-pipeline.mjs --gpus 2 --slots 8,32 --frames 1000 --repeats 1 --mode both --timing > "$OUT/multi-gpu-2.log" 2>&1
  echo "multi-gpu exit $?" >> "$OUT/multi-gpu-2.log"
  cat "$OUT/workers.log"
  tail -n 30 "$OUT/multi-gpu-2.log"
  [ -n "${SEEDS:-}" ] && [ "$(left)" -gt 60 ] && LIMIT=$(left) bash scripts/gpu/fuzz-gpus.sh
  ;;
exits)
  for how in ${PASSES:-pinned unpinned}; do
    [ "$how" = none ] && continue  # PASSES=none: only the run under load
    [ "$how" = unpinned ] && export OPENCL_INTEROP_VULKAN_UNPINNED=1
    CUDA_VISIBLE_DEVICES=0 node scripts/gpu/test.mjs --only suite --files exit-alive,external-mistakes --step-limit 270 > "$OUT/exits-$how.log" 2>&1
    echo "$how: exit $?" >> "$OUT/exits-$how.log"
    grep -E "^ *(✔|✖)|exit [0-9]|ended by itself|ended once the debugger" "$OUT/exits-$how.log" | cut -c1-200
  done
  unset OPENCL_INTEROP_VULKAN_UNPINNED
  if [ -n "${SEEDS:-}" ]; then
    GPUS="${LOAD_GPUS:-1 2 3}" LIMIT=$(left) bash scripts/gpu/fuzz-gpus.sh > "$OUT/fuzz.txt" 2>&1 &
    CUDA_VISIBLE_DEVICES=0 node scripts/gpu/test.mjs --only suite --files exit-alive,external-mistakes --step-limit 270 > "$OUT/exits-loaded.log" 2>&1
    echo "loaded: exit $?" >> "$OUT/exits-loaded.log"
    grep -E "^ *(✔|✖)|exit [0-9]|ended by itself|ended once the debugger" "$OUT/exits-loaded.log" | cut -c1-200
    wait
    cat "$OUT/fuzz.txt"
  fi
  ;;
workers)
  # Issue 23 item 5, for a machine with 4 GPUs: worker threads against processes, Node and C (bench/workers_c.c),
  # with the queues' waiting threads (NVIDIA's default) and with driver callbacks: if callbacks scale where the
  # waiting threads do not, the lanes' shared lock (native/completion.cc) is the suspect; if C's threads fall short
  # of C's processes too, the driver is.
  for mode in waiter callback; do
    side=both; [ "$mode" = callback ] && side=node  # C's side does not change with the mode
    OPENCL_INTEROP_COMPLETION=$mode timeout 200 node bench/workers.mjs --platform NVIDIA --streams 1,2,4 --side $side \
      > "$OUT/workers-$mode.log" 2>&1
    echo "workers ($mode) exit $?" >> "$OUT/workers-$mode.log"
    cat "$OUT/workers-$mode.log"
  done
  if [ -n "${COMPARE_ADDON:-}" ]; then  # the same Node side with another build of the addon (before a change)
    addon=build/Release/opencl_interop.node
    cp "$addon" "$OUT/.addon-under-test.node" && cp "$COMPARE_ADDON" "$addon"
    OPENCL_INTEROP_COMPLETION=waiter timeout 200 node bench/workers.mjs --platform NVIDIA --streams 1,2,4 --side node \
      > "$OUT/workers-compare.log" 2>&1
    echo "workers (waiter, $COMPARE_ADDON) exit $?" >> "$OUT/workers-compare.log"
    cp "$OUT/.addon-under-test.node" "$addon" && rm "$OUT/.addon-under-test.node"
    cat "$OUT/workers-compare.log"
  fi
  # the await's cost against C (goal <= 1.1x), then the two-GPU pipeline with a worker per GPU (goal >= 0.95x)
  timeout 120 node bench/run.mjs --platform NVIDIA --no-python --iterations 3000 --big-iterations 5 --repeats 5 \
    > "$OUT/await.log" 2>&1
  echo "run.mjs exit $?" >> "$OUT/await.log"
  grep -E -i "await|waiter|roundtrip|setarg|exit" "$OUT/await.log" | head -12
  timeout 150 node bench/multi-gpu-pipeline.mjs --gpus 2 --slots 8,32 --frames 1000 --repeats 1 --mode workers --timing \
    > "$OUT/multi-gpu-2.log" 2>&1
  echo "multi-gpu exit $?" >> "$OUT/multi-gpu-2.log"
  tail -n 30 "$OUT/multi-gpu-2.log"
  ;;
streams4)
  # Issue 23 item 5, longer: 4 streams, 10000 commands each, median of 5, alone on the machine: on 4 GPUs (Node and
  # C), on one GPU (CUDA_VISIBLE_DEVICES=0), and on 4 GPUs with V8's platform pool at 16 threads (4 isolates of one
  # process share its 4 threads by default, where 4 processes have 4 each: the scavenges' helpers).
  streams_run gpus4 node "${streams_args[@]}" --side both
  CUDA_VISIBLE_DEVICES=0 streams_run gpu0 node "${streams_args[@]}" --side both
  streams_run pool16 node --v8-pool-size=16 "${streams_args[@]}" --side node
  ;;
handoff)
  # Issue 23 item 5: is the workers' shortfall at 4 streams the driver's with the package's shape of work? C's
  # streams with the package's calls and thread hops (--c-wait handoff: a waiting thread per stream, completions
  # handed back through an eventfd) as threads and as processes, beside Node's workers and processes and C's
  # direct waits; 4 streams of 10000 commands, median of 5, on 4 GPUs and on one.
  streams_run gpus4 node "${streams_args[@]}" --side both --c-wait handoff
  streams_run gpus4-direct node "${streams_args[@]}" --side c
  CUDA_VISIBLE_DEVICES=0 streams_run gpu0 node "${streams_args[@]}" --side c --c-wait handoff
  ;;
teardown)
  # Issue 22: NVIDIA's teardown calls under a load of fuzzers on LOAD_GPUS (default 1), then FILES (suite files)
  # under the same load. The fourth 2026-11-27 session: SEEDS="811-840 841-870 871-900" LOAD_GPUS="1 1 1" LIMIT=400.
  GPUS="${LOAD_GPUS:-1}" LIMIT=$limit bash scripts/gpu/fuzz-gpus.sh > "$OUT/fuzz.txt" 2>&1 &
  fuzzing=$!
  sleep 20
  CUDA_VISIBLE_DEVICES=0 node scripts/gpu/teardown-under-load.mjs --budget $(( $(left) - 40 )) ${TEARDOWN_ARGS:-} > "$OUT/teardown.log" 2>&1
  echo "teardown exit $?" >> "$OUT/teardown.log"
  grep -v "^    " "$OUT/teardown.log" | cut -c1-300
  if [ -n "${FILES:-}" ]; then  # then these suite files on GPU 0, the load still running
    CUDA_VISIBLE_DEVICES=0 node scripts/gpu/test.mjs --only suite --files "$FILES" --step-limit 200 > "$OUT/suite.log" 2>&1
    echo "suite exit $?" >> "$OUT/suite.log"
    grep -E "^ *(✔|✖)|exit [0-9]|ended by itself|ended once the debugger|  ok  |  FAIL" "$OUT/suite.log" | cut -c1-200
  fi
  pkill -f test/fuzz/misuse.mjs; wait "$fuzzing"
  cat "$OUT/fuzz.txt"
  ;;
*)
  echo "finish-run.sh: the part is suite, bench, exits, workers, streams4 or teardown, not $part" >&2
  exit 2
  ;;
esac
