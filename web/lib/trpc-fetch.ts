import * as React from "react";

import type { RouterInputs, RouterOutputs } from "@/lib/trpc";

// The few tRPC calls of the prerendered public pages, over plain fetch: their entry
// (web/public-entry.tsx) stays free of the tRPC client and React Query (issue 5 item 8, at most
// 120 KB of JavaScript for /). Same endpoint, same wire format as the SPA's client: a GET
// `/trpc/a,b?batch=1` for queries without input, a POST `/trpc/path` with the input as JSON for
// mutations; answers come as `{ result: { data } }` or `{ error: { message, data } }`.

/** A refusal or failure of a call, shaped like the tRPC client's error (message, data.httpStatus). */
export class ProcedureError extends Error {
  readonly data: { code?: string; httpStatus?: number };
  constructor(message: string, data: { code?: string; httpStatus?: number } = {}) {
    super(message);
    this.name = "ProcedureError";
    this.data = data;
  }
}

type Envelope = { result?: { data?: unknown }; error?: { message?: string; data?: { code?: string; httpStatus?: number } } };

function unwrap(envelope: Envelope | undefined, status: number): unknown {
  if (envelope?.result && "data" in envelope.result) return envelope.result.data;
  const error = envelope?.error;
  throw new ProcedureError(error?.message ?? `Request failed (${status})`, { code: error?.data?.code, httpStatus: error?.data?.httpStatus ?? status });
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new ProcedureError(`Unexpected answer (${response.status})`, { httpStatus: response.status });
  }
}

/** Queries without input, in one request; each answer is the procedure's data or a ProcedureError. */
export async function queryProcedures(paths: readonly string[]): Promise<Array<unknown>> {
  const response = await fetch(`/trpc/${paths.join(",")}?batch=1&input=%7B%7D`, { credentials: "same-origin" });
  const body = await readJson(response);
  if (!Array.isArray(body)) throw new ProcedureError(`Unexpected answer (${response.status})`, { httpStatus: response.status });
  return paths.map((_, index) => {
    try {
      return unwrap(body[index] as Envelope, response.status);
    } catch (error) {
      return error;
    }
  });
}

type Mutations = {
  "contact.send": [RouterInputs["contact"]["send"], RouterOutputs["contact"]["send"]];
  "tablers.match": [RouterInputs["tablers"]["match"], RouterOutputs["tablers"]["match"]];
  "orders.create": [RouterInputs["orders"]["create"], RouterOutputs["orders"]["create"]];
  "account.logout": [void, RouterOutputs["account"]["logout"]];
};

/** One mutation; throws a ProcedureError on a refusal or when the server cannot be reached. */
export async function mutate<P extends keyof Mutations>(path: P, input: Mutations[P][0]): Promise<Mutations[P][1]> {
  let response: Response;
  try {
    response = await fetch(`/trpc/${path}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: input === undefined ? "" : JSON.stringify(input),
    });
  } catch (error) {
    throw new ProcedureError(error instanceof Error ? error.message : "Network error");
  }
  return unwrap((await readJson(response)) as Envelope, response.status) as Mutations[P][1];
}

/**
 * A mutation for a form: `mutateAsync` and `isPending`, like React Query's useMutation, which the
 * public pages do without. A second call while one runs is refused at once.
 */
export function useMutate<P extends keyof Mutations>(path: P) {
  const [isPending, setPending] = React.useState(false);
  const running = React.useRef(false);
  const mutateAsync = React.useCallback(
    async (input: Mutations[P][0]): Promise<Mutations[P][1]> => {
      if (running.current) throw new ProcedureError("Already sending");
      running.current = true;
      setPending(true);
      try {
        return await mutate(path, input);
      } finally {
        running.current = false;
        setPending(false);
      }
    },
    [path],
  );
  return { mutateAsync, isPending };
}
