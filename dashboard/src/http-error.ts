// Errors the HTTP layer answers with: a status, a machine-readable code, and for bad input the
// field and what is allowed. The JSON body never carries a stack trace.

export interface ErrorBody {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly field?: string;
    readonly allowed?: string;
  };
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly allowed?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.field === undefined ? {} : { field: this.field }),
        ...(this.allowed === undefined ? {} : { allowed: this.allowed }),
      },
    };
  }
}
