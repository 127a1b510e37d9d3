// The shape of lib/: imports (type-only ones included) form no circle, the
// core never imports an area (lib/interop/, lib/va/, lib/vulkan/,
// lib/direct3d/: it reaches the sharing extensions through
// lib/sharing-hooks.ts, and each area registers the error classes its native
// side throws in lib/errors.ts), lib/direct3d/ and lib/va/ (resource
// producers) sit beside lib/interop/, and lib/facts/ (spec data: tokens,
// formats, status codes) is the base every layer may import. `declare module`
// augmentations are not imports. See docs/ARCHITECTURE.md.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers';

const libRoot = resolve(repoRoot, 'lib');
const direct3d = resolve(libRoot, 'direct3d');
const facts = resolve(libRoot, 'facts');
/** '' for the core (lib/*.ts) and for lib/facts/ (the base), else the area's folder name. */
const areaOfLib = (file: string): string => {
  const parts = relative(libRoot, file).split('/');
  return parts.length > 1 && parts[0] !== 'facts' ? parts[0]! : '';
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'|^import\s+'(\.[^']+)'/gms)) {
    const target = resolve(dirname(file), match[1] ?? match[2]!);
    const candidates = [`${target}.ts`, join(target, 'index.ts')];
    const hit = candidates.find((candidate) => files.includes(candidate));
    if (hit) found.push(hit);
  }
  return found;
}

const files = sources(libRoot);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const libAreas = [...new Set(files.map(areaOfLib).filter((area) => area !== ''))];
const name = (file: string): string => relative(repoRoot, file);

/** Every circle of a graph of files, each as 'a -> b -> a'. */
function circlesOf(nodes: readonly string[], next: (file: string) => readonly string[]): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...path.slice(path.indexOf(file)), file].map(name).join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const target of next(file)) visit(target, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of nodes) visit(file, []);
  return circles;
}

describe('lib/ layering', () => {
  it('reads the imports of every file (the parser sees the known edges)', () => {
    expect(graph.get(resolve(libRoot, 'queue.ts'))).toContain(resolve(libRoot, 'event.ts'));
    expect(graph.get(resolve(libRoot, 'event.ts'))).toContain(resolve(libRoot, 'links.ts'));
    expect(graph.get(resolve(libRoot, 'index.ts'))).toContain(resolve(libRoot, 'interop/index.ts'));
  });

  it('has no import circle, type-only imports included', () => {
    expect(circlesOf(files, (file) => graph.get(file)!)).toEqual([]);
  });

  it('the core (lib/*.ts) never imports an area (lib/interop/, lib/va/, lib/vulkan/, lib/direct3d/): lib/index.ts and the CLI put them together', () => {
    const wiring = new Set(['index.ts', 'cli.ts'].map((file) => resolve(libRoot, file)));
    const offenders = files
      .filter((file) => areaOfLib(file) === '' && !wiring.has(file))
      .flatMap((file) =>
        graph
          .get(file)!
          .filter((target) => areaOfLib(target) !== '')
          .map((target) => `${name(file)} -> ${name(target)}`),
      );
    expect(libAreas).toEqual(expect.arrayContaining(['interop', 'va', 'vulkan', 'direct3d']));
    expect(offenders).toEqual([]);
  });

  it('lib/direct3d/ sits beside lib/interop/: it imports nothing of it, the facades take its objects without importing it, the core imports neither', () => {
    const interop = resolve(libRoot, 'interop');
    const wiring = new Set(['index.ts', 'cli.ts'].map((file) => resolve(libRoot, file)));
    const edges = files.flatMap((file) => graph.get(file)!.map((target) => [file, target] as const));
    const fromDirect3D = edges.filter(([file, target]) => file.startsWith(direct3d + '/') && target.startsWith(interop + '/'));
    expect(fromDirect3D.map(([file, target]) => `${name(file)} -> ${name(target)}`)).toEqual([]);
    const intoDirect3D = edges.filter(([file, target]) => target.startsWith(direct3d + '/') && !file.startsWith(direct3d + '/') && !wiring.has(file));
    expect(intoDirect3D.map(([file, target]) => `${name(file)} -> ${name(target)}`)).toEqual([]);
    expect(graph.get(resolve(direct3d, 'texture-formats.ts'))).toContain(resolve(facts, 'sharing-formats.ts'));
  });

  it('lib/pipeline/ sits above lib/interop/ and the producers: nothing but the wiring imports it', () => {
    const pipeline = resolve(libRoot, 'pipeline');
    const wiring = new Set(['index.ts', 'cli.ts'].map((file) => resolve(libRoot, file)));
    const into = files.flatMap((file) =>
      graph
        .get(file)!
        .filter((target) => target.startsWith(pipeline + '/') && !file.startsWith(pipeline + '/') && !wiring.has(file))
        .map((target) => `${name(file)} -> ${name(target)}`),
    );
    expect(graph.get(resolve(pipeline, 'frame-pipeline.ts'))).toEqual(
      expect.arrayContaining([resolve(libRoot, 'interop/semaphore.ts'), resolve(libRoot, 'vulkan/device.ts')]),
    );
    expect(into).toEqual([]);
  });

  it("OS handles have one room on each side: only lib/os-handle.ts calls the addon's closeFd / duplicateFd / isOpenFd / closeHandle, and only native/os_handle.cc defines them", () => {
    const osCalls = /\.(closeFd|duplicateFd|isOpenFd|closeHandle|vkCloseHandle)\(/;
    const room = resolve(libRoot, 'os-handle.ts');
    const callers = files.filter(
      (file) =>
        file !== room &&
        /\b(?:nativeAddon|addon|ready|vulkanAddon)\(\)\??\.(?:direct3d\??\.)?(closeFd|duplicateFd|isOpenFd|closeHandle|vkCloseHandle)\(/.test(
          readFileSync(file, 'utf8'),
        ),
    );
    expect(readFileSync(room, 'utf8')).toMatch(osCalls);
    expect(callers.map(name)).toEqual([]);
    const nativeRoot = resolve(repoRoot, 'native');
    const nativeSources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? nativeSources(join(dir, entry.name)) : entry.name.endsWith('.cc') ? [join(dir, entry.name)] : [],
      );
    const definers = nativeSources(nativeRoot).filter((file) =>
      /\.Set\("(closeFd|duplicateFd|isOpenFd|closeHandle|vkCloseHandle)"/.test(readFileSync(file, 'utf8')),
    );
    expect(definers.map(name)).toEqual(['native/os_handle.cc']);
    // One rule for every object that owns a handle (an exported memory or semaphore handle, a received
    // one, a VaDmaBuf's fds): lib/os-handle.ts's registry closes what garbage collection finds unclosed.
    const registries = files.filter((file) => file !== room && /new FinalizationRegistry\b/.test(readFileSync(file, 'utf8')));
    expect(registries.map(name)).toEqual(['lib/event.ts']);
  });

  it("the objects that are not OpenCL's hold their native wrapper through one base (lib/holder.ts), none spelling #native / dispose() of its own", () => {
    const holders = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bclass (\w+)(?:<[^>]*>)? extends NativeHolder\b/g)].map((match) => `${name(file)}: ${match[1]}`),
    );
    expect(holders.sort()).toEqual([
      'lib/direct3d/object.ts: Direct3DObject',
      'lib/host-memory.ts: HostMemory',
      'lib/va/display.ts: VaDisplay',
      'lib/vulkan/commands.ts: VulkanCommands',
      'lib/vulkan/device.ts: VulkanDevice',
      'lib/vulkan/instance.ts: VulkanInstance',
      'lib/vulkan/memory.ts: VulkanMemoryResource',
      'lib/vulkan/semaphore.ts: VulkanSemaphore',
    ]);
    const spelled = [...new Set(holders.map((holder) => holder.split(':')[0]!))].filter((file) =>
      /#native\b/.test(readFileSync(resolve(repoRoot, file), 'utf8')),
    );
    expect(spelled).toEqual([]);
  });

  it('lib/facts/ is the base: it imports only lib/facts/ (the argument checks and errors build on it, not it on them)', () => {
    const offenders = files
      .filter((file) => file.startsWith(facts + '/'))
      .flatMap((file) =>
        graph
          .get(file)!
          .filter((target) => !target.startsWith(facts + '/'))
          .map((target) => `${name(file)} -> ${name(target)}`),
      );
    expect(offenders).toEqual([]);
    expect(graph.get(resolve(libRoot, 'errors.ts'))).toContain(resolve(facts, 'cl-status.ts'));
  });
});

// native/ throws the error classes of lib/ by name (native/errors.h ThrowErrorOf).
// lib/errors.ts registers the core's, each area's errors module its own, as it
// loads; lib/native-addon.ts installs the table itself, so the core imports no area.
describe('the error classes native code throws by name', () => {
  const nativeRoot = resolve(repoRoot, 'native');
  const nativeFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? nativeFiles(join(dir, entry.name)) : /\.(cc|h)$/.test(entry.name) ? [join(dir, entry.name)] : [],
    );
  /** The lib/ folder whose errors module registers what a native file throws: '' (lib/errors.ts) for the core. */
  const twinArea = (file: string): string => {
    const parts = relative(nativeRoot, file).split('/');
    return parts.length > 1 ? parts[0]! : '';
  };
  const errorsModule = (area: string): string => (area ? resolve(libRoot, area, 'errors.ts') : resolve(libRoot, 'errors.ts'));
  const registeredBy = (module: string): string[] =>
    [...readFileSync(module, 'utf8').matchAll(/^registerNativeErrorClasses\(\{([^}]*)\}\);$/gm)].flatMap((match) =>
      match[1]!
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    );
  const thrown = nativeFiles(nativeRoot).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bThrowErrorOf\(\s*\w+,\s*"(\w+)"/g)].map((match) => ({ file, className: match[1]! })),
  );
  const registeringAreas = libAreas.filter((area) => existsSync(errorsModule(area)) && registeredBy(errorsModule(area)).length > 0);

  it('reads the throws and the registrations (the parsers see the known ones)', () => {
    expect(thrown.map(({ className }) => className)).toEqual(expect.arrayContaining(['OpenCLError', 'VaError', 'VulkanError', 'Direct3DError']));
    expect(registeredBy(errorsModule(''))).toEqual(['OpenCLError', 'OpenCLEntryPointError', 'OpenCLReleasedError']);
    expect(registeringAreas.sort()).toEqual(['direct3d', 'va', 'vulkan']);
  });

  it("each class native/<area>/ throws is registered by lib/<area>/errors.ts (or the core's lib/errors.ts), and no other class is", () => {
    const unregistered = thrown.filter(
      ({ file, className }) =>
        !registeredBy(errorsModule('')).includes(className) && !(twinArea(file) && registeredBy(errorsModule(twinArea(file))).includes(className)),
    );
    expect(unregistered.map(({ file, className }) => `${name(file)}: ${className}`)).toEqual([]);
    const neverThrown = ['', ...registeringAreas].flatMap((area) =>
      registeredBy(errorsModule(area))
        .filter((className) => !thrown.some((site) => site.className === className))
        .map((className) => `${name(errorsModule(area))}: ${className}`),
    );
    expect(neverThrown).toEqual([]);
  });

  it("an area's classes are registered before its native side runs: every file that reaches it imports the area's errors module", () => {
    // In the area: a call that gets the addon. Anywhere: an addon member of the area's (addon.direct3d, addon.vaX(), addon.vkX()).
    const getsTheAddon = /\b(?:nativeAddon|addon|ready)\(\)/;
    const areaMembers: Record<string, RegExp> = { direct3d: /\)\??\.direct3d\b/, va: /\)\??\.va[A-Z]\w*\(/, vulkan: /\)\??\.vk[A-Z]\w*\(/ };
    expect(Object.keys(areaMembers).sort()).toEqual(registeringAreas.sort());
    const reaching = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return registeringAreas
        .filter((area) => (areaOfLib(file) === area && getsTheAddon.test(text)) || areaMembers[area]!.test(text))
        .map((area) => ({ file, area }));
    });
    expect(reaching.map(({ file }) => name(file))).toEqual(
      expect.arrayContaining(['lib/va/loader.ts', 'lib/vulkan/loader.ts', 'lib/direct3d/object.ts']),
    );
    const unguarded = reaching.filter(({ file, area }) => !graph.get(file)!.includes(errorsModule(area)));
    expect(unguarded.map(({ file, area }) => `${name(file)} reaches ${area} without ${name(errorsModule(area))}`)).toEqual([]);
  });
});

describe('examples/ and the test equipment', () => {
  it('the examples reach test/ only through examples/support/test-equipment.mjs', () => {
    const examplesRoot = resolve(repoRoot, 'examples');
    const testRoot = resolve(repoRoot, 'test');
    const helper = resolve(examplesRoot, 'support/test-equipment.mjs');
    const scripts = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? scripts(join(dir, entry.name)) : entry.name.endsWith('.mjs') ? [join(dir, entry.name)] : [],
      );
    const reaching = scripts(examplesRoot).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bfrom\s+'(\.[^']+)'/g)]
        .map((match) => resolve(dirname(file), match[1]!))
        .filter((target) => target.startsWith(testRoot + '/'))
        .map((target) => `${name(file)} -> ${name(target)}`),
    );
    expect(reaching.length).toBeGreaterThan(0);
    expect(reaching.filter((edge) => !edge.startsWith(`${name(helper)} -> `))).toEqual([]);
  });
});

// ---- native/ ---------------------------------------------------------------
// The shape of native/: the core at the top (twins of lib/*.ts), one folder per
// area (interop/, va/, direct3d/, ...). Includes are written relative to
// native/ and form no circle; nothing includes the registration file
// (addon.cc, which has no header); the core never includes an area; an area
// includes core headers and its own; addon.cc reaches each area only through
// the area's registration header, <area>/<area>.h. One area may build on
// another only where that edge is declared here, one way (as lib/video/
// builds on lib/vulkan/): the video module runs on the Vulkan module's
// devices (native/video/ -> native/vulkan/), never the other way.
const nativeRoot = resolve(repoRoot, 'native');
const areaBuildsOn: Readonly<Record<string, readonly string[]>> = { video: ['vulkan'] };

function nativeSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return nativeSources(path);
    return /\.(cc|h)$/.test(entry.name) ? [path] : [];
  });
}

/** Quoted includes of a file, as written; the path each names under native/ (null: none there). */
function nativeIncludesOf(file: string, known: Set<string>): { written: string; target: string | null }[] {
  return [...readFileSync(file, 'utf8').matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)].map((match) => {
    const target = resolve(nativeRoot, match[1]!);
    return { written: match[1]!, target: known.has(target) ? target : null };
  });
}

/** '' for the core (native/ itself), else the area's folder name. */
const areaOf = (file: string): string => {
  const parts = relative(nativeRoot, file).split('/');
  return parts.length > 1 ? parts[0]! : '';
};

describe('native/ layering', () => {
  const nativeFiles = nativeSources(nativeRoot);
  const known = new Set(nativeFiles);
  const includes = new Map(nativeFiles.map((file) => [file, nativeIncludesOf(file, known)]));
  const edges = nativeFiles.flatMap((file) => includes.get(file)!.flatMap(({ target }) => (target ? [[file, target] as const] : [])));
  const edgeName = ([from, to]: readonly [string, string]): string => `${name(from)} -> ${name(to)}`;
  const registration = resolve(nativeRoot, 'addon.cc');
  const areas = [...new Set(nativeFiles.map(areaOf).filter((area) => area !== ''))];

  it('reads the includes of every file (the parser sees the known edges)', () => {
    expect(areas).toEqual(expect.arrayContaining(['interop', 'va', 'direct3d']));
    expect(edges.map(edgeName)).toEqual(
      expect.arrayContaining(['native/queue.cc -> native/queue.h', 'native/interop/extensions.cc -> native/interop/sharing.h']),
    );
  });

  it('writes every include relative to native/ (both builds put native/ on the include path)', () => {
    const unresolved = nativeFiles.flatMap((file) =>
      includes
        .get(file)!
        .filter(({ target }) => target === null)
        .map(({ written }) => `${name(file)}: #include "${written}"`),
    );
    expect(unresolved).toEqual([]);
  });

  it('has no include circle', () => {
    expect(circlesOf(nativeFiles, (file) => edges.filter(([from]) => from === file).map(([, to]) => to))).toEqual([]);
  });

  it('nothing reaches back up to the registration: no file includes native/addon.*', () => {
    const offenders = edges.filter(([, to]) => /^native\/addon\.\w+$/.test(name(to)));
    expect(offenders.map(edgeName)).toEqual([]);
  });

  it('the core (native/*.cc|h but addon.cc) never includes an area', () => {
    const offenders = edges.filter(([from, to]) => from !== registration && areaOf(from) === '' && areaOf(to) !== '');
    expect(offenders.map(edgeName)).toEqual([]);
  });

  it('an area includes core headers, its own headers, and those of an area it is declared to build on only', () => {
    const offenders = edges.filter(
      ([from, to]) =>
        areaOf(from) !== '' && areaOf(to) !== '' && areaOf(to) !== areaOf(from) && !(areaBuildsOn[areaOf(from)] ?? []).includes(areaOf(to)),
    );
    expect(offenders.map(edgeName)).toEqual([]);
  });

  it('the declared area edges are one way and real: native/video/ includes native/vulkan/, nothing of native/vulkan/ includes native/video/', () => {
    const declared = Object.entries(areaBuildsOn).flatMap(([from, targets]) => targets.map((to) => [from, to] as const));
    const back = declared.filter(([from, to]) => (areaBuildsOn[to] ?? []).includes(from));
    expect(back).toEqual([]);
    for (const [from, to] of declared) {
      expect(areas).toEqual(expect.arrayContaining([from, to]));
      expect(edges.some(([a, b]) => areaOf(a) === from && areaOf(b) === to)).toBe(true);
      expect(edges.filter(([a, b]) => areaOf(a) === to && areaOf(b) === from).map(edgeName)).toEqual([]);
    }
  });

  it('addon.cc reaches each area through its registration header <area>/<area>.h, and through nothing else', () => {
    const intoAreas = edges.filter(([from, to]) => from === registration && areaOf(to) !== '');
    const beyondRegistration = intoAreas.filter(([, to]) => relative(nativeRoot, to) !== `${areaOf(to)}/${areaOf(to)}.h`);
    expect(beyondRegistration.map(edgeName)).toEqual([]);
    expect(intoAreas.map(([, to]) => areaOf(to)).sort()).toEqual([...areas].sort());
  });
});
