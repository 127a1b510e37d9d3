// What the AddressSanitizer and UndefinedBehaviorSanitizer builds found
// (scripts/sanitize.sh), each reproduced in a fresh process through the public
// API with what a plain build can observe. Each test failed before its fix.
import { describe, expect, it } from 'vitest';
import { runNodeForValue } from './helpers';
import { softvaForChildren } from './helpers/va';

// Every snippet gets `ocl`, `done(value)` (prints the value as JSON; a snippet
// that never calls it fails) and `errorOf(fn)`.
const prelude = `
const done = (value) => console.log(JSON.stringify(value ?? null));
const errorOf = (fn) => { try { fn(); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } };
`;

/** Runs the snippet in a fresh node; it must exit 0 (no signal) and print a value last. */
async function fresh(code: string, env: NodeJS.ProcessEnv): Promise<unknown> {
  return (await runNodeForValue(prelude + code, { env })).value;
}

describe('ASan (a): the address of a VA display this module terminated is refused before anything reads it (libva freed that memory)', () => {
  const va = softvaForChildren();

  const terminated = (address: string) =>
    `VaDisplayError: ${address} is not a live VADisplay: this module terminated the VADisplay at that address (its last holder let go of it): libva freed its memory`;

  it('VaDisplay.adopt(address) and adopt(address, { from: AVVAAPIDeviceContext }) of a disposed display nothing held', async () => {
    const value = (await fresh(
      `
      const display = ocl.openVaDisplay({ kind: 'x11' });
      const address = display.address;
      display.dispose();
      done({
        address: '0x' + address.toString(16),
        direct: errorOf(() => ocl.VaDisplay.adopt(address)),
        indirect: errorOf(() => ocl.VaDisplay.adopt(address, { from: 'AVVAAPIDeviceContext' })),
      });`,
      va.env(),
    )) as { address: string; direct: string; indirect: string };
    expect(value.direct).toBe(terminated(value.address));
    expect(value.indirect).toBe(terminated(value.address).replace('live VADisplay', 'live AVVAAPIDeviceContext'));
  });

  it('9.X.1 / 9.X.2: getDevices(address) and createContext(address) of that display are refused before the driver is called', async () => {
    const value = (await fresh(
      `
      const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
      const va = platform.getSharing('cl_intel_va_api_media_sharing');
      const display = ocl.openVaDisplay({ kind: 'x11' });
      const address = display.address;
      const live = va.getDevices(address).length;
      display.dispose();
      done({
        address: '0x' + address.toString(16),
        live,
        devices: errorOf(() => va.getDevices(address)),
        context: errorOf(() => va.createContext(address)),
      });`,
      va.env(),
    )) as { address: string; live: number; devices: string; context: string };
    const message = `VaDisplayError: display ${value.address} is not a live VADisplay: this module terminated the VADisplay at that address (its last holder let go of it): libva freed its memory`;
    expect(value).toEqual({ address: value.address, live: 1, devices: message, context: message });
  });
});
