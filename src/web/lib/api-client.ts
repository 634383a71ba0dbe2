import type { z } from 'zod';

/** Thrown for any answer that is not 2xx; carries the status so callers can tell 404 from the rest. */
export class ApiRequestError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** GETs a JSON answer and parses it with the call's contract schema. */
export async function getJson<T extends z.ZodType>(
  path: string,
  schema: T,
  signal?: AbortSignal,
): Promise<z.output<T>> {
  const response = await fetch(path, { headers: { accept: 'application/json' }, signal: signal ?? null });
  if (!response.ok) throw new ApiRequestError(response.status, `${path} answered ${response.status}`);
  return schema.parse(await response.json());
}
