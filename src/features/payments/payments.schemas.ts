import * as z from 'zod';
import { recordId } from '../../core/record-id';

/** POST /api/payments/confirm `{import_id}` and the tRPC calls about one import. */
export const importIdSchema = z.object(
  { import_id: recordId('Geef een geldig importnummer (import_id).') },
  { error: 'Geef een geldig importnummer (import_id).' },
);

/** tRPC payments.forOrder `{order_id}`. */
export const orderIdSchema = z.object(
  { order_id: recordId('Geef een geldig bestelnummer (order_id).') },
  { error: 'Geef een geldig bestelnummer (order_id).' },
);

export type ImportIdInput = z.output<typeof importIdSchema>;
