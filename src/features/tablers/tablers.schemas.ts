import { z } from 'zod';
import { GATE_MESSAGES } from './tabler-gate';

export const matchSchema = z.object({
  password: z.string({ error: GATE_MESSAGES.empty }).max(100, { error: GATE_MESSAGES.noMatch }),
});
