// Typed arrays over shared memory, posted to another thread so that they arrive whole (see
// SharedView). The window transfer's team shares its table and count vectors this way.

/**
 * A typed array as it crosses to another thread: its SharedArrayBuffer and where it lies in it.
 * Node 20 posts a view of 4 GiB or more with its length cut to the low 32 bits of its byte
 * length (N(18, 11)'s level of 1.08e9 nodes, 4.3 GB as an Int32Array, arrived as 8.9e6 and the
 * thread counted 3588985938 for 613385556714); the buffer itself crosses whole, so the
 * receiver builds the view again from it.
 */
interface SharedView {
  readonly sharedView: 'Int32Array' | 'Uint32Array' | 'Uint16Array' | 'Uint8Array' | 'Float64Array';
  readonly buffer: SharedArrayBuffer;
  readonly byteOffset: number;
  readonly length: number;
}

const VIEW_TYPES = { Int32Array, Uint32Array, Uint16Array, Uint8Array, Float64Array } as const;

/** The value with each typed array (one level into objects and arrays) as a SharedView. */
export function toSharedMessage(value: unknown): unknown {
  const encode = (item: unknown): unknown => {
    if (!ArrayBuffer.isView(item) || !(item.buffer instanceof SharedArrayBuffer)) return item;
    const type = item.constructor.name;
    if (!(type in VIEW_TYPES)) throw new TypeError(`cannot share a ${type}`);
    const length = (item as unknown as ArrayLike<number>).length;
    return { sharedView: type, buffer: item.buffer, byteOffset: item.byteOffset, length };
  };
  if (Array.isArray(value)) return value.map(encode);
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]));
  }
  return encode(value);
}

/** toSharedMessage undone: each SharedView a typed array over the same memory again. */
export function fromSharedMessage(message: unknown): unknown {
  const decode = (item: unknown): unknown => {
    if (!item || typeof item !== 'object' || !('sharedView' in item)) return item;
    const { sharedView, buffer, byteOffset, length } = item as SharedView;
    // Every entry of VIEW_TYPES takes (buffer, byteOffset, length); the union's lib types
    // disagree on the buffer's type, not on the call.
    const View = VIEW_TYPES[sharedView] as new (
      buffer: SharedArrayBuffer,
      byteOffset: number,
      length: number,
    ) => ArrayBufferView;
    return new View(buffer, byteOffset, length);
  };
  if (Array.isArray(message)) return message.map(decode);
  if (message && typeof message === 'object' && !('sharedView' in message)) {
    return Object.fromEntries(Object.entries(message).map(([k, v]) => [k, decode(v)]));
  }
  return decode(message);
}
