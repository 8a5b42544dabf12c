// A failure reported by the kernel thread, with whether another attempt can help.

export class KernelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'KernelError';
  }
}
