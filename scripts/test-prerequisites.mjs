// The first step of `npm test`: the suites run against real drivers, so the
// machine needs the OpenCL ICD loader, PoCL, the OpenCL headers (the
// reference driver is built against them), libva with its headers and Xvfb
// (the VA tests run the real libva with the software VA driver on an X
// display), the Vulkan loader with lavapipe and its headers (the Vulkan tests
// and the reference driver's lavapipe ctest), vulkaninfo (a test compares what
// the package reads with it), the mingw-w64 headers (the Direct3D error codes
// are checked against them), CMake, make and g++, and git and clang-format
// (npm run lint).
// On Debian/Ubuntu as root (or with password-less sudo) whatever is missing is
// installed; anywhere else this stops within seconds with one message that
// names what to install, instead of dozens of failing tests.
// `prerequisites` is also read by test/helpers (a program a test spawns that
// is missing names its package) and test/prerequisites.test.ts (every program
// and library a test spawns or loads by name is listed here).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const libDirs = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib', '/usr/local/lib'];

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

const hasLibrary = (lib) => libDirs.some((dir) => existsSync(`${dir}/${lib}`));
const listed = (dirs, pattern) => dirs.some((dir) => existsSync(dir) && readdirSync(dir).some((f) => pattern.test(f)));

// Each entry: what it is (the message), its Debian packages, how to tell it is
// here, and the programs (`commands`) and libraries (`libraries`) the tests
// reach by name through it.
export const prerequisites = [
  {
    what: 'the OpenCL ICD loader (libOpenCL.so.1)',
    debian: ['ocl-icd-libopencl1'],
    libraries: ['libOpenCL.so.1'],
    ok: () => hasLibrary('libOpenCL.so.1'),
  },
  {
    what: 'PoCL, the CPU OpenCL driver the tests run on',
    debian: ['pocl-opencl-icd'],
    ok: () => listed(['/etc/OpenCL/vendors'], /pocl/i),
  },
  { what: 'the OpenCL C headers (CL/cl.h)', debian: ['opencl-c-headers'], ok: () => existsSync('/usr/include/CL/cl.h') },
  {
    what: 'libva (libva.so.2, libva-drm.so.2, libva-x11.so.2: the VA tests run on the real libva)',
    debian: ['libva2', 'libva-drm2', 'libva-x11-2'],
    // libX11 comes with libva-x11-2; the VA tests open their X display through it.
    libraries: ['libva.so.2', 'libva-drm.so.2', 'libva-x11.so.2', 'libX11.so.6'],
    ok: () => ['libva.so.2', 'libva-drm.so.2', 'libva-x11.so.2', 'libX11.so.6'].every(hasLibrary),
  },
  {
    what: "libva's headers (va/va_backend.h: the software VA driver the tests load is built against them)",
    debian: ['libva-dev'],
    ok: () => existsSync('/usr/include/va/va_backend.h'),
  },
  { what: 'Xvfb', debian: ['xvfb'], commands: ['Xvfb'], ok: () => onPath('Xvfb') },
  {
    what: 'the Vulkan loader (libvulkan.so.1: the Vulkan tests run on the real loader)',
    debian: ['libvulkan1'],
    libraries: ['libvulkan.so.1'],
    ok: () => hasLibrary('libvulkan.so.1'),
  },
  {
    what: 'lavapipe, the CPU Vulkan driver the Vulkan tests run on',
    debian: ['mesa-vulkan-drivers'],
    ok: () => listed(['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d'], /^lvp_icd\./),
  },
  {
    what: "the Vulkan headers (vulkan/vulkan.h: the reference driver's lavapipe ctest is built against them)",
    debian: ['libvulkan-dev'],
    ok: () => existsSync('/usr/include/vulkan/vulkan.h') && hasLibrary('libvulkan.so'),
  },
  {
    what: 'vulkaninfo (a Vulkan test compares the UUIDs the package reads with it)',
    debian: ['vulkan-tools'],
    commands: ['vulkaninfo'],
    ok: () => onPath('vulkaninfo'),
  },
  {
    what: 'the mingw-w64 headers (winerror.h, d3d11.h: the Direct3D error codes are checked against them)',
    debian: ['mingw-w64-common'],
    ok: () => existsSync('/usr/share/mingw-w64/include/winerror.h'),
  },
  { what: 'CMake', debian: ['cmake'], commands: ['cmake', 'ctest'], ok: () => onPath('cmake') && onPath('ctest') },
  { what: 'make', debian: ['make'], commands: ['make'], ok: () => onPath('make') },
  // CMake takes any C++17 compiler; a test compiles a header check with g++ itself.
  { what: 'g++', debian: ['g++'], commands: ['g++'], ok: () => onPath('g++') },
  // npm run lint, the step of npm test after this one (scripts/lint.mjs).
  { what: 'git (npm run lint lists the files to check with it)', debian: ['git'], commands: ['git'], ok: () => onPath('git') },
  {
    what: 'clang-format (npm run lint checks the layout of the C and C++ with it)',
    debian: ['clang-format'],
    commands: ['clang-format'],
    ok: () => onPath('clang-format'),
  },
];

/** The Debian packages that provide a program the tests run by name, or undefined when it is not a prerequisite. */
export function packagesFor(command) {
  return prerequisites.find((entry) => entry.commands?.includes(command))?.debian;
}

function main() {
  if (process.platform !== 'linux') {
    console.error('npm test runs on Linux (PoCL and the reference driver); on Windows use npm run test:windows under Wine, see docs/windows.md.');
    process.exit(1);
  }

  const missing = prerequisites.filter((check) => !check.ok());
  if (missing.length === 0) process.exit(0);

  const packages = missing.flatMap((check) => check.debian);
  const isDebian = existsSync('/etc/debian_version');
  const root = process.getuid?.() === 0;
  const sudo = !root && onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;

  if (isDebian && (root || sudo)) {
    console.log(`npm test: installing what the tests need: ${packages.join(' ')}`);
    const run = (args) =>
      execFileSync(root ? args[0] : 'sudo', root ? args.slice(1) : args, {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    try {
      run(['apt-get', 'update', '-q']);
      run(['apt-get', 'install', '-y', '-q', '--no-install-recommends', ...packages]);
    } catch {
      console.error(`npm test: apt-get could not install ${packages.join(' ')}; install them and run npm test again.`);
      process.exit(1);
    }
    const still = prerequisites.filter((check) => !check.ok());
    if (still.length === 0) process.exit(0);
    missing.splice(0, missing.length, ...still);
  }

  console.error(
    `npm test needs ${missing.map((check) => check.what).join(', ')}.\n` +
      (isDebian
        ? `Install them with: sudo apt-get install ${packages.join(' ')}`
        : `Install them with your package manager (Debian/Ubuntu names: ${packages.join(' ')}).`),
  );
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
