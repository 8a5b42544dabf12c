// Requests to the dashboard's own API: a POST carries the CSRF token from its cookie, and an
// error answer is read the same way everywhere.

interface ApiError {
  readonly error?: { code?: string; message?: string; field?: string; allowed?: string };
}

function csrfToken(): string {
  const match = /(?:^|;\s*)wq_csrf=([0-9a-f]+)/.exec(document.cookie);
  return match?.[1] ?? '';
}

/** A GET of the API: its answer, or undefined when the dashboard refused it. */
export async function getJson<T>(path: string): Promise<T | undefined> {
  const res = await fetch(path, { credentials: 'same-origin' });
  return res.ok ? ((await res.json()) as T) : undefined;
}

export async function post(path: string, body: unknown): Promise<{ ok: boolean; data: unknown }> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken() },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    data = { error: { message: `HTTP ${res.status}` } };
  }
  return { ok: res.ok, data };
}

export function errorOf(data: unknown): NonNullable<ApiError['error']> {
  return (data as ApiError | null)?.error ?? { message: 'unexpected answer' };
}
