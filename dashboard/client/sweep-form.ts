// The start form: posts a sweep, and puts the server's refusal next to the field it names.
import { errorOf, post } from './api.js';
import { $ } from './dom.js';

function showFieldError(input: HTMLInputElement, error: HTMLElement, message: string): void {
  error.textContent = message;
  error.hidden = message === '';
  input.setAttribute('aria-invalid', message === '' ? 'false' : 'true');
}

export function wireForm(): void {
  const form = $<HTMLFormElement>('sweep-form');
  const ns = $<HTMLInputElement>('ns');
  const target = $<HTMLInputElement>('target');
  const nsError = $('ns-error');
  const targetError = $('target-error');
  const message = $('form-message');
  const button = $<HTMLButtonElement>('start');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    showFieldError(ns, nsError, '');
    showFieldError(target, targetError, '');
    message.hidden = true;
    const body: Record<string, unknown> = { ns: ns.value };
    if (target.value.trim() !== '') body.targetSeconds = Number(target.value);
    button.disabled = true;
    post('/api/sweeps', body)
      .then(({ ok, data }) => {
        if (ok) {
          const sub = data as {
            sweep: { id: string };
            added: number;
            otherProtocolOnly?: readonly { id: string; protocol?: number }[];
          };
          // Only workers of another build are live: none of them takes these jobs.
          const others = (sub.otherProtocolOnly ?? [])
            .map((w) => `${w.id} (protocol ${w.protocol ?? 1})`)
            .join(', ');
          message.textContent =
            `Sweep ${sub.sweep.id} started: ${sub.added} jobs queued.` +
            (others && sub.added > 0
              ? ` No live worker is of this build; ${others} take none of its jobs: start a worker of this build (wq worker).`
              : '');
          message.hidden = false;
          return;
        }
        const error = errorOf(data);
        const text = error.allowed ? `Expected ${error.allowed}.` : (error.message ?? 'refused');
        if (error.field === 'ns') showFieldError(ns, nsError, text);
        else if (error.field === 'targetSeconds') showFieldError(target, targetError, text);
        else {
          message.textContent = error.message ?? 'The sweep was refused.';
          message.hidden = false;
        }
      })
      .catch(() => {
        message.textContent = 'The dashboard cannot be reached.';
        message.hidden = false;
      })
      .finally(() => {
        button.disabled = false;
      });
  });
}
