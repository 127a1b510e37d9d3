// npm run lint (check) and npm run format (--write), over the checkout this is
// run in (the current directory's git work tree): Biome formats and lints the
// TypeScript and JavaScript (rules in biome.jsonc), clang-format formats the
// C and C++ (rules in .clang-format). Checking changes nothing and exits 1 on
// a file that is not formatted or a lint finding; --write formats in place
// (lint findings are fixed by hand). Files are those git tracks or would track
// (ignored ones, such as build outputs, are skipped), so a new file is checked
// before it is added.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const write = process.argv.includes('--write');
const CPP = /\.(c|cc|cpp|h|hpp)$/;
const CLANG_FORMAT = process.env.CLANG_FORMAT || 'clang-format';
// The version CI installs (Debian 12); other versions may lay out a few lines differently.
const CLANG_FORMAT_MAJOR = 14;

function git(args) {
  const result = spawnSync('git', args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.status !== 0) {
    console.error(`lint: git ${args.join(' ')} failed (run this inside the repository's git checkout): ${result.stderr || result.error}`);
    process.exit(1);
  }
  return result.stdout;
}

const root = git(['rev-parse', '--show-toplevel']).trim();
process.chdir(root);
const files = git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
  .split('\0')
  .filter((file) => file !== '');
const cppFiles = files.filter((file) => CPP.test(file));

const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
const failed = [];

function run(name, command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.error) {
    console.error(`lint: ${name} could not run: ${result.error.message}`);
    failed.push(name);
  } else if (result.status !== 0) {
    failed.push(name);
  }
}

// Biome: the formatter alone with --write; the check is formatting and lint.
if (write) run('biome format', process.execPath, [biome, 'format', '--write', '.']);
else run('biome check', process.execPath, [biome, 'check', '--error-on-warnings', '.']);

const version = spawnSync(CLANG_FORMAT, ['--version'], { encoding: 'utf8' });
if (version.error || version.status !== 0) {
  console.error(`lint: ${CLANG_FORMAT} is not installed (Debian: apt-get install clang-format; npm test installs it)`);
  failed.push('clang-format');
} else {
  const major = Number(/version (\d+)\./.exec(version.stdout)?.[1]);
  if (major !== CLANG_FORMAT_MAJOR) {
    console.error(
      `lint: note: ${version.stdout.trim()}; CI uses clang-format ${CLANG_FORMAT_MAJOR} (Debian 12), which may lay out some lines differently`,
    );
  }
  // A few dozen files a call: the command line stays short.
  for (let i = 0; i < cppFiles.length; i += 40) {
    const batch = cppFiles.slice(i, i + 40);
    run('clang-format', CLANG_FORMAT, write ? ['-i', '--style=file', ...batch] : ['--dry-run', '-Werror', '--style=file', ...batch]);
  }
}

const names = [...new Set(failed)];
if (names.length > 0) {
  const fix = write ? '' : '; npm run format rewrites the layout, lint findings are fixed by hand';
  console.error(`lint: ${names.join(', ')} failed in ${path.basename(root)}${fix}`);
  process.exit(1);
}
if (!write) console.log(`lint: clean (Biome: the TypeScript and JavaScript; clang-format: ${cppFiles.length} C and C++ files)`);
