import { expect } from 'vitest';

/** Any refusal code (docs/decisions/062), for a table of refusals whose rows name only the text. */
export const anyCode = expect.stringMatching(/^[A-Z][A-Z0-9_]+$/);
