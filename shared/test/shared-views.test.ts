// Typed arrays over shared memory cross to another thread whole. Node 20 posts a view of 4 GiB
// or more with its length cut to 32 bits of its byte length, which made a team's N(18, 11)
// (a 4.3 GB level) count 3588985938 for 613385556714. The arrays here are 4 GiB + 8 bytes of
// SharedArrayBuffer that nothing touches, so the system never commits their pages.
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { fromSharedMessage, toSharedMessage } from '../src/kernel/shared-views.js';

const BIG = 2 ** 32 + 8;

/** Posts `value` through a MessageChannel, as a team thread receives it. */
function roundTrip(value: unknown): unknown {
  const { port1, port2 } = new MessageChannel();
  try {
    port1.postMessage(toSharedMessage(value));
    const received = receiveMessageOnPort(port2);
    return fromSharedMessage(received?.message);
  } finally {
    port1.close();
  }
}

describe('typed arrays shared with a team thread', () => {
  it('arrive with their whole length past 4 GiB, over the same memory', () => {
    const big = new Uint16Array(new SharedArrayBuffer(BIG));
    const small = new Float64Array(new SharedArrayBuffer(80), 16, 3);
    const shared = roundTrip({ last: true, big, small, rows: 7 }) as {
      last: boolean;
      big: Uint16Array;
      small: Float64Array;
      rows: number;
    };
    expect(shared.big).toBeInstanceOf(Uint16Array);
    expect(shared.big.length).toBe(2147483652);
    expect([shared.small.byteOffset, shared.small.length]).toEqual([16, 3]);
    expect([shared.last, shared.rows]).toEqual([true, 7]);
    shared.big[2147483651] = 4321;
    shared.small[2] = 0.5;
    expect([big[2147483651], small[2]]).toEqual([4321, 0.5]);
  });

  it('arrive in a tuple, its empty places kept', () => {
    const a = new Int32Array(new SharedArrayBuffer(BIG));
    const b = new Uint32Array(new SharedArrayBuffer(12));
    const [x, y, z] = roundTrip([a, b, undefined]) as [Int32Array, Uint32Array, undefined];
    expect([x.length, y.length, z]).toEqual([1073741826, 3, undefined]);
    expect([x.constructor, y.constructor]).toEqual([Int32Array, Uint32Array]);
  });
});
