// Types of test-prerequisites.mjs (read by test/helpers and test/prerequisites.test.ts).

export interface Prerequisite {
  /** What it is, as the message names it. */
  readonly what: string;
  /** Its Debian/Ubuntu packages. */
  readonly debian: readonly string[];
  /** Programs the tests run by name that it provides. */
  readonly commands?: readonly string[];
  /** Libraries the tests load by name that it provides. */
  readonly libraries?: readonly string[];
  /** Whether it is installed here. */
  ok(): boolean;
}

export declare const prerequisites: readonly Prerequisite[];
/** The Debian packages that provide a program the tests run by name, or undefined when it is not a prerequisite. */
export declare function packagesFor(command: string): readonly string[] | undefined;
