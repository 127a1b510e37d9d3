// Builds the reference driver, the C benchmark and the driver's tests with
// CMake into cmake-build/. Quiet when it works; the whole log when it fails.
import { spawnSync } from 'node:child_process';

const steps = [
  ['cmake', ['-S', '.', '-B', 'cmake-build', '-DCMAKE_BUILD_TYPE=Release']],
  ['cmake', ['--build', 'cmake-build', '-j2']],
];
for (const [command, args] of steps) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    process.stderr.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    console.error(
      result.error?.code === 'ENOENT'
        ? `${command} was not found: install CMake and a C++17 compiler (Debian: apt-get install cmake g++)`
        : `${command} ${args.join(' ')} failed (exit status ${result.status})`,
    );
    process.exit(1);
  }
}
