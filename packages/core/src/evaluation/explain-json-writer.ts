/** An append-only byte buffer, grown by doubling (sized up front, it never needs to). */
export interface ByteWriter {
  /** The buffer; bytes up to `length` are written. */
  readonly bytes: Uint8Array;
  readonly length: number;
  put(fragment: Uint8Array): void;
  putByte(byte: number): void;
}

/** A writer with room for `capacity` bytes. */
export function createByteWriter(capacity: number): ByteWriter {
  // Every byte up to `length` is written before it is read: no need to zero the memory first.
  let bytes: Uint8Array = Buffer.allocUnsafe(Math.max(capacity, 64));
  let length = 0;
  const grow = (needed: number): void => {
    const bigger = Buffer.allocUnsafe(Math.max(bytes.length * 2, length + needed));
    bigger.set(bytes.subarray(0, length));
    bytes = bigger;
  };
  return {
    get bytes() {
      return bytes;
    },
    get length() {
      return length;
    },
    put(fragment) {
      const n = fragment.length;
      if (length + n > bytes.length) grow(n);
      // Short fragments copy faster by hand than through a native call.
      if (n < 32) {
        let at = length;
        for (let i = 0; i < n; i++) bytes[at++] = fragment[i]!;
      } else bytes.set(fragment, length);
      length += n;
    },
    putByte(byte) {
      if (length === bytes.length) grow(1);
      bytes[length++] = byte;
    },
  };
}
