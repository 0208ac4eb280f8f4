// pure-rand 8 publishes its types under package.json "exports" only, which this project's moduleResolution ("node",
// for ts-node and CommonJS) does not read: the one entry the kit uses (src/fuzz/stream.ts), declared here.
declare module 'pure-rand/generator/xorshift128plus' {
  /** A mutable generator: `next` and `jump` move it in place; `jump` skips 2^64 draws. */
  export interface JumpableGenerator {
    clone(): JumpableGenerator;
    next(): number;
    jump(): void;
    getState(): readonly number[];
  }
  export function xorshift128plus(seed: number): JumpableGenerator;
}
