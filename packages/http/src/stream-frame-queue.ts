/** A frame as the pieces it is written in: a payload's bytes are sent as they are, never copied. */
export type Frame = Uint8Array | readonly Uint8Array[];

/**
 * A stream's bounded queue of frames, which the adapter pulls a piece at a time with back-pressure.
 * The bound is on the frames waiting behind the one being sent: a frame is never refused to a client
 * that has taken, or is taking, everything before it, however large the frame (a hydration at 50,000
 * features is ~20 MB in a few hundred pieces).
 */
export class FrameQueue implements AsyncIterableIterator<Uint8Array> {
  /** What is left of the frame being sent. */
  private current: Uint8Array[] = [];
  /** Whole frames behind it, and their bytes. */
  private frames: (readonly Uint8Array[])[] = [];
  private queued = 0;
  private waiting: ((result: IteratorResult<Uint8Array>) => void) | null = null;
  private ended = false;

  constructor(
    private readonly maxQueuedBytes: number,
    private readonly onEnd: () => void = () => {},
  ) {}

  /** Queues a frame; false (and the stream ends) when the client is too far behind. */
  push(frame: Frame): boolean {
    if (this.ended) return false;
    const pieces = frame instanceof Uint8Array ? [frame] : frame;
    if (pieces.length === 0) return true;
    if (this.current.length === 0 && this.frames.length === 0) {
      // Nothing in the way: it is sent from now on, however large.
      this.current = [...pieces];
      this.deliver();
      return true;
    }
    let size = 0;
    for (const piece of pieces) size += piece.byteLength;
    // Frames piling up behind a slow client.
    if (this.frames.length > 0 && this.queued + size > this.maxQueuedBytes) {
      this.end();
      return false;
    }
    this.frames.push(pieces);
    this.queued += size;
    return true;
  }

  /** The next piece to send, if any: the current frame's, else the first waiting frame's. */
  private take(): Uint8Array | undefined {
    if (this.current.length === 0) {
      const next = this.frames.shift();
      if (next === undefined) return undefined;
      for (const piece of next) this.queued -= piece.byteLength;
      this.current = [...next];
    }
    return this.current.shift();
  }

  /** Hands a piece to a pending read. */
  private deliver(): void {
    if (!this.waiting) return;
    const value = this.take();
    if (value === undefined) return;
    const resolve = this.waiting;
    this.waiting = null;
    resolve({ done: false, value });
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Ends the stream: what is queued is dropped, a pending read finishes. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.current = [];
    this.frames = [];
    this.queued = 0;
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.({ done: true, value: undefined });
    this.onEnd();
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    const value = this.take();
    if (value !== undefined) return Promise.resolve({ done: false, value });
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  // The adapter calls this when the client goes away, even while a read is pending.
  return(): Promise<IteratorResult<Uint8Array>> {
    this.end();
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this;
  }
}
