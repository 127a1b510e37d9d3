// The first step of `npm test`: the suites run against real drivers, so the
// machine needs the OpenCL ICD loader, PoCL, the OpenCL headers (the
// reference driver is built against them), libva with its headers and Xvfb
// (the VA tests run the real libva with the software VA driver on an X
// display) and CMake with a C++ compiler.
// On Debian/Ubuntu as root (or with password-less sudo) whatever is missing is
// installed; anywhere else this stops within seconds with one message that
// names what to install, instead of dozens of failing tests.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const libDirs = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib', '/usr/local/lib'];

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

const checks = [
  {
    what: 'the OpenCL ICD loader (libOpenCL.so.1)',
    debian: ['ocl-icd-libopencl1'],
    ok: () => libDirs.some((dir) => existsSync(`${dir}/libOpenCL.so.1`)),
  },
  {
    what: 'PoCL, the CPU OpenCL driver the tests run on',
    debian: ['pocl-opencl-icd'],
    ok: () => existsSync('/etc/OpenCL/vendors') && readdirSync('/etc/OpenCL/vendors').some((f) => /pocl/i.test(f)),
  },
  { what: 'the OpenCL C headers (CL/cl.h)', debian: ['opencl-c-headers'], ok: () => existsSync('/usr/include/CL/cl.h') },
  {
    what: 'libva (libva.so.2, libva-drm.so.2, libva-x11.so.2: the VA tests run on the real libva)',
    debian: ['libva2', 'libva-drm2', 'libva-x11-2'],
    ok: () => ['libva.so.2', 'libva-drm.so.2', 'libva-x11.so.2'].every((lib) => libDirs.some((dir) => existsSync(`${dir}/${lib}`))),
  },
  {
    what: "libva's headers (va/va_backend.h: the software VA driver the tests load is built against them)",
    debian: ['libva-dev'],
    ok: () => existsSync('/usr/include/va/va_backend.h'),
  },
  { what: 'Xvfb', debian: ['xvfb'], ok: () => onPath('Xvfb') },
  { what: 'CMake', debian: ['cmake'], ok: () => onPath('cmake') },
  { what: 'a C++ compiler', debian: ['g++'], ok: () => onPath('c++') || onPath('g++') || onPath('clang++') },
];

if (process.platform !== 'linux') {
  console.error('npm test runs on Linux (PoCL and the reference driver); on Windows use npm run test:windows under Wine, see docs/windows.md.');
  process.exit(1);
}

const missing = checks.filter((check) => !check.ok());
if (missing.length === 0) process.exit(0);

const packages = missing.flatMap((check) => check.debian);
const isDebian = existsSync('/etc/debian_version');
const root = process.getuid?.() === 0;
const sudo = !root && onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;

if (isDebian && (root || sudo)) {
  console.log(`npm test: installing what the tests need: ${packages.join(' ')}`);
  const run = (args) => execFileSync(root ? args[0] : 'sudo', root ? args.slice(1) : args, {
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
  const still = checks.filter((check) => !check.ok());
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
