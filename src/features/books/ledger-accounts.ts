import { AppError } from '../../core/errors';
import type { BuiltInSettingKey } from '../settings/settings.defaults';
import type { DUTCH_VAT_RATES } from '../settings/setting-rules';

/**
 * The ledger accounts the accountant's journal books on (docs/decisions/076): settings of the club, named here once
 * for the journal. Revenue has an account per Dutch VAT rate, VAT payable one per rate above 0 %.
 */
type VatRate = (typeof DUTCH_VAT_RATES)[number];
type AccountKey = BuiltInSettingKey<'string'>;

const REVENUE = { 0: 'ledger_revenue_0', 9: 'ledger_revenue_9', 21: 'ledger_revenue_21' } as const satisfies Record<VatRate, AccountKey>;
const VAT = { 9: 'ledger_vat_9', 21: 'ledger_vat_21' } as const satisfies Partial<Record<VatRate, AccountKey>>;

export const LEDGER_ACCOUNT_KEYS = [
  ...Object.values(REVENUE),
  ...Object.values(VAT),
  'ledger_debtors',
  'ledger_bank',
  'ledger_payment_provider',
] as const satisfies readonly AccountKey[];
export type LedgerAccountKey = (typeof LEDGER_ACCOUNT_KEYS)[number];

export const noLedgerAccount = (kind: 'omzet' | 'btw', rate: number) =>
  `Er is geen grootboekrekening voor ${kind} tegen ${rate} % btw: het journaal kent 0, 9 en 21 %.`;

/** The setting that names the account of revenue or VAT at a rate; refused for a rate without one. */
export function rateAccountKey(kind: 'revenue' | 'vat', rate: number): LedgerAccountKey {
  const key = (kind === 'revenue' ? REVENUE : VAT)[rate as keyof typeof VAT & keyof typeof REVENUE] as LedgerAccountKey | undefined;
  if (key === undefined) throw new AppError('VAT_RATE_WITHOUT_LEDGER', noLedgerAccount(kind === 'revenue' ? 'omzet' : 'btw', rate));
  return key;
}

export interface LedgerAccounts {
  debtors: string;
  bank: string;
  paymentProvider: string;
  revenue: (rate: number) => string;
  vat: (rate: number) => string;
}
