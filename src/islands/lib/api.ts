/** A JSON call to our own /api; throws ApiError with the status and the server's error text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** Calls our own /api with a JSON body; `headers` adds request headers (e.g. Idempotency-Key). */
export async function callApi<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    const message = (data as { error?: string } | null)?.error ??
      `HTTP ${response.status}`;
    throw new ApiError(response.status, message, data);
  }
  return data as T;
}
