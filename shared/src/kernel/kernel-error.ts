// A unit the kernel pool could not count (the kernel threw, its thread died, or it ran past its
// work bound), with whether another attempt can help.

export class KernelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'KernelError';
  }
}
