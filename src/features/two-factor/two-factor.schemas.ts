import { refusalText } from '../../core/input-issues';
import * as z from 'zod';

// docs/product.md §3: two-factor payloads carry a code (6 digits, or a recovery code like 'ABCD-EFGH').
export const codeSchema = z.object({
  code: z
    .string({ error: 'Code is required' })
    .trim()
    .min(1, { error: 'Code is required' })
    .max(20, { error: refusalText('TWO_FACTOR_CODE_INVALID', 'Invalid 2FA code') }),
});
