import { expect } from 'vitest';
import type { TestApp } from './test-app';

/** The club's real-looking invoice details: a valid IBAN (mod-97), KvK number and VAT id (docs/decisions/019). */
export const VALID_INVOICE_SETTINGS = {
  club_iban: 'NL91ABNA0417164300',
  club_kvk_number: '12345678',
  club_vat_id: 'NL123456789B01',
} as const;

/** Sets settings as an admin would, through the API (so the save rules apply). */
export async function setSettings(t: TestApp, adminCookie: string, values: Record<string, string | number>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const r = await t.request('/api/settings/update', { cookie: adminCookie, body: { key, value } });
    expect(r.json, `${key} = ${value}`).toEqual({ success: true });
  }
}
