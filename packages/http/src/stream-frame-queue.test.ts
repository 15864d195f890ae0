import { describe, expect, it } from 'vitest';
import { FrameQueue } from './stream-frame-queue.js';

const bytes = (n: number, fill = 0x61) => new Uint8Array(n).fill(fill);
const read = async (queue: FrameQueue): Promise<Uint8Array | undefined> => (await queue.next()).value;

describe('a stream queue', () => {
  it('sends a frame larger than its bound to a client that has taken everything before it', async () => {
    const queue = new FrameQueue(100);
    expect(queue.push([bytes(80), bytes(80), bytes(80)])).toBe(true);
    expect((await read(queue))?.byteLength).toBe(80);
    expect(queue.isEnded).toBe(false);
  });

  // Regression: a hydration of many pieces (the client payload's blocks) counted against the bound
  // while it was being sent, so the first change made while a client read it ended the stream.
  it('queues the next frame while a large one is still being sent, and sends it after', async () => {
    const queue = new FrameQueue(100);
    queue.push([bytes(80, 1), bytes(80, 2), bytes(80, 3)]);
    expect((await read(queue))?.[0]).toBe(1);
    expect(queue.push(bytes(10, 9))).toBe(true);
    expect((await read(queue))?.[0]).toBe(2);
    expect((await read(queue))?.[0]).toBe(3);
    expect((await read(queue))?.[0]).toBe(9);
    expect(queue.isEnded).toBe(false);
  });

  it('ends the stream when the frames waiting behind the one being sent pass the bound', async () => {
    let ended = 0;
    const queue = new FrameQueue(100, () => ended++);
    queue.push([bytes(80), bytes(80)]);
    await read(queue);
    expect(queue.push(bytes(60))).toBe(true);
    expect(queue.push(bytes(60))).toBe(false);
    expect(queue.isEnded).toBe(true);
    expect(ended).toBe(1);
    expect(await queue.next()).toEqual({ done: true, value: undefined });
  });

  it('hands a frame to a read that waits for one', async () => {
    const queue = new FrameQueue(100);
    const pending = queue.next();
    queue.push([bytes(5, 7), bytes(5, 8)]);
    expect((await pending).value?.[0]).toBe(7);
    expect((await read(queue))?.[0]).toBe(8);
    queue.end();
    expect((await queue.next()).done).toBe(true);
  });
});
