/**
 * A FormData as the bytes a browser sends, with its Content-Type. Handed over as a FormData, undici keeps
 * encoding it into the request's stream in the background; when the server refuses early and cancels the
 * body (as it must, to stop reading), undici's next write then fails as an unhandled rejection in the test
 * process. That is a race of the test harness, not of the server, and bytes leave nothing running.
 */
export async function encodedForm(form: FormData): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string }> {
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}
