declare module 'pako' {
  /** pako 1.x's streaming inflater (the part Git Sync's pack guard uses). */
  export class Inflate {
    constructor(options?: { chunkSize?: number });
    push(data: Uint8Array, mode: boolean | number): boolean;
    onData(chunk: Uint8Array): void;
    onEnd(status: number): void;
    ended: boolean;
    err: number;
    msg: string;
    strm: { avail_in: number };
  }
  /** pako is CommonJS: Node's ES modules see only its default export. */
  const pako: { Inflate: typeof Inflate };
  export default pako;
}
