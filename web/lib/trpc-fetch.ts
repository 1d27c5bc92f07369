import type {
  AnyMutationProcedure,
  AnyProcedure,
  AnyQueryProcedure,
  inferProcedureInput,
  inferTransformedProcedureOutput,
} from "@trpc/server";
import * as React from "react";

import type { AppRouter } from "#src/app-router";

// The few tRPC calls of the prerendered public pages, over plain fetch: their entry
// (web/public-entry.tsx) stays free of the tRPC client and React Query (docs/decisions/045, 036: at most 80 KB of
// JavaScript for /; @trpc/client's vanilla client alone would add about 6 KB gzip). Same endpoint, same
// wire format as the SPA's client: a GET `/trpc/a,b?batch=1` for queries without input, a POST
// `/trpc/path` with the input as JSON for mutations; answers come as `{ result: { data } }` or
// `{ error: { message, data } }`. The paths, inputs and outputs are the router's own (AppRouter).

/** Every procedure of the router with its path on the wire ("contact.send"). */
type ProcedureEntry<Record, Prefix extends string = ""> = {
  [Key in keyof Record & string]: Record[Key] extends AnyProcedure
    ? { path: `${Prefix}${Key}`; procedure: Record[Key] }
    : ProcedureEntry<Record[Key], `${Prefix}${Key}.`>;
}[keyof Record & string];
type Procedures = ProcedureEntry<AppRouter["_def"]["record"]>;
type ProcedureAt<Path> = Extract<Procedures, { path: Path }>["procedure"];
type QueryPath = Extract<Procedures, { procedure: AnyQueryProcedure }>["path"];
type MutationPath = Extract<Procedures, { procedure: AnyMutationProcedure }>["path"];
type Input<Path> = inferProcedureInput<ProcedureAt<Path>>;
type Output<Path> = inferTransformedProcedureOutput<AppRouter, ProcedureAt<Path>>;

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
  throw new ProcedureError(error?.message ?? `Request failed (${status})`, {
    code: error?.data?.code,
    httpStatus: error?.data?.httpStatus ?? status,
  });
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new ProcedureError(`Unexpected answer (${response.status})`, { httpStatus: response.status });
  }
}

/** Queries without input, in one request; each answer is the procedure's data or a ProcedureError. */
export async function queryProcedures<const Paths extends readonly QueryPath[]>(
  paths: Paths,
): Promise<{ -readonly [Index in keyof Paths]: Output<Paths[Index]> | ProcedureError }> {
  const response = await fetch(`/trpc/${paths.join(",")}?batch=1&input=%7B%7D`, { credentials: "same-origin" });
  const body = await readJson(response);
  if (!Array.isArray(body)) throw new ProcedureError(`Unexpected answer (${response.status})`, { httpStatus: response.status });
  return paths.map((_, index) => {
    try {
      return unwrap(body[index] as Envelope, response.status);
    } catch (error) {
      return error;
    }
  }) as { -readonly [Index in keyof Paths]: Output<Paths[Index]> | ProcedureError };
}

/** One mutation; throws a ProcedureError on a refusal or when the server cannot be reached. */
export async function mutate<Path extends MutationPath>(path: Path, input: Input<Path>): Promise<Output<Path>> {
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
  return unwrap((await readJson(response)) as Envelope, response.status) as Output<Path>;
}

/**
 * A mutation for a form: `mutateAsync` and `isPending`, like React Query's useMutation, which the
 * public pages do without. A second call while one runs is refused at once.
 */
export function useMutate<Path extends MutationPath>(path: Path) {
  const [isPending, setPending] = React.useState(false);
  const running = React.useRef(false);
  const mutateAsync = React.useCallback(
    async (input: Input<Path>): Promise<Output<Path>> => {
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
