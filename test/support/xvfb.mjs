// Xvfb for the VA tests and the misuse fuzzer: the examples' (examples/support/xvfb.mjs).
export { startXvfb } from '../../examples/support/xvfb.mjs';
