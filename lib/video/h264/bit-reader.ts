// Reads the RBSP of one NAL unit straight from the bytes as sent: emulation
// prevention bytes (00 00 03, 7.4.1) are skipped as they are met, so nothing
// is copied; every read is checked against the end of the unit and a read
// past it throws H264BitstreamError naming the syntax element. One reader is
// reused for every NAL unit (reset), so parsing allocates nothing per bit.
import { H264BitstreamError } from './types';

export class BitReader {
  #data: Uint8Array = new Uint8Array(0);
  #start = 0;
  #end = 0;
  /** Index of the next byte to load. */
  #next = 0;
  /** The byte being read and how many of its bits are left. */
  #byte = 0;
  #left = 0;
  /** Zero bytes just before #next (for emulation prevention). */
  #zeros = 0;
  /** Emulation prevention bytes skipped so far. */
  #skipped = 0;
  /** What is being read, for messages ("SPS", "slice header"). */
  #what = '';
  /** Escaped byte index and bit of the rbsp_stop_one_bit; -1 until asked. */
  #stopByte = -2;
  #stopBit = 0;

  /** Starts reading data[start..end) (a NAL unit without its start code). */
  reset(data: Uint8Array, start: number, end: number, what: string): this {
    this.#data = data;
    this.#start = start;
    this.#end = end;
    this.#next = start;
    this.#byte = 0;
    this.#left = 0;
    this.#zeros = 0;
    this.#skipped = 0;
    this.#what = what;
    this.#stopByte = -2;
    return this;
  }

  #overrun(element: string): never {
    throw new H264BitstreamError(`${this.#what}: ${element} reads past the end of the NAL unit (${this.#end - this.#start} bytes)`);
  }

  #load(element: string): void {
    if (this.#next >= this.#end) this.#overrun(element);
    let b = this.#data[this.#next++]!;
    if (b === 3 && this.#zeros >= 2) {
      this.#skipped++;
      this.#zeros = 0;
      if (this.#next >= this.#end) this.#overrun(element);
      b = this.#data[this.#next++]!;
    }
    this.#zeros = b === 0 ? this.#zeros + 1 : 0;
    this.#byte = b;
    this.#left = 8;
  }

  /** One bit as a boolean. */
  flag(element: string): boolean {
    if (this.#left === 0) this.#load(element);
    this.#left--;
    return ((this.#byte >> this.#left) & 1) === 1;
  }

  /** u(n), n = 0..32. */
  u(n: number, element: string): number {
    let v = 0;
    while (n > 0) {
      if (this.#left === 0) this.#load(element);
      const take = n < this.#left ? n : this.#left;
      this.#left -= take;
      v = v * (1 << take) + ((this.#byte >> this.#left) & ((1 << take) - 1));
      n -= take;
    }
    return v;
  }

  /** Skips n bits (n may be large: checked once, then read past in whole bytes). */
  skip(n: number, element: string): void {
    while (n > 0 && this.#left > 0) {
      this.#left--;
      n--;
    }
    while (n >= 8) {
      this.#load(element);
      this.#left = 0;
      n -= 8;
    }
    if (n > 0) this.u(n, element);
  }

  /** ue(v) (9.1) in min..max; a value outside (or a code longer than 32 bits) throws naming the element. */
  ue(element: string, max = 0xfffffffe, min = 0): number {
    let zeros = 0;
    while (!this.flag(element)) {
      if (++zeros > 31) throw new H264BitstreamError(`${this.#what}: ${element} has an Exp-Golomb code longer than 32 bits (9.1)`);
    }
    const v = 2 ** zeros - 1 + (zeros ? this.u(zeros, element) : 0);
    if (v > max || v < min) throw new H264BitstreamError(`${this.#what}: ${element} is ${v}, outside ${min}..${max}`);
    return v;
  }

  /** se(v) (9.1.1) in min..max. */
  se(element: string, min: number, max: number): number {
    const k = this.ue(element);
    const v = k & 1 ? (k + 1) / 2 : k === 0 ? 0 : -k / 2;
    if (v > max || v < min) throw new H264BitstreamError(`${this.#what}: ${element} is ${v}, outside ${min}..${max}`);
    return v;
  }

  /** RBSP bits read since `start` (emulation prevention bytes not counted). */
  get bitPosition(): number {
    return (this.#next - this.#start - this.#skipped) * 8 - this.#left;
  }

  /** Emulation prevention bytes skipped so far. */
  get emulationBytes(): number {
    return this.#skipped;
  }

  /** more_rbsp_data() (7.2): is there anything before the rbsp_stop_one_bit? */
  moreRbspData(): boolean {
    if (this.#stopByte === -2) {
      // The last non-zero byte holds the stop bit (trailing zero bytes are cabac_zero_words or padding).
      let i = this.#end - 1;
      while (i >= this.#start && this.#data[i] === 0) i--;
      this.#stopByte = i;
      if (i >= this.#start) {
        const b = this.#data[i]!;
        let bit = 0;
        while (((b >> bit) & 1) === 0) bit++;
        this.#stopBit = bit;
      }
    }
    if (this.#stopByte < this.#start) return false;
    // The bit to read next: byte #next - 1 with #left bits left, or byte #next when none are.
    const byteIndex = this.#left > 0 ? this.#next - 1 : this.#next;
    const bitsLeftInByte = this.#left > 0 ? this.#left : 8;
    if (byteIndex < this.#stopByte) return true;
    if (byteIndex > this.#stopByte) return false;
    // Same byte: bits left include the stop bit at position #stopBit (from the least significant).
    return bitsLeftInByte - 1 > this.#stopBit;
  }
}
