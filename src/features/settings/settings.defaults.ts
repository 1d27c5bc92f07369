import { PASSWORD_MIN_LENGTH } from '../../core/credential-rules';
import type { SettingType, SettingVisibility } from './settings.schemas';

/**
 * The built-in settings (docs/architecture.md §3). Seeded on start when absent, never overwritten, and not deletable.
 * Their values here are also the defaults a reader falls back to (docs/product.md §3).
 * `default_user_group_id` is seeded with the id of the `Users` group, so it has no static default.
 */
export interface SettingDefinition {
  key: string;
  value: string;
  type: SettingType;
  description: string;
  visibility: SettingVisibility;
  group_name: string;
  min_value?: number;
  max_value?: number;
}

export const DEFAULT_VAT_SPLIT = JSON.stringify([{ label: 'Kerstpakket', share_percent: 100, vat_rate: 21 }]);

const DEFINITIONS = [
  {
    key: 'allow_registration',
    value: 'false',
    type: 'boolean',
    visibility: 'public',
    group_name: 'auth',
    description: 'Allow visitors to create an account on /register.',
  },
  {
    key: 'password_min_length',
    value: String(PASSWORD_MIN_LENGTH),
    type: 'integer',
    visibility: 'public',
    group_name: 'auth',
    min_value: PASSWORD_MIN_LENGTH,
    max_value: 128,
    description: 'Minimum password length for registration and admin password resets.',
  },
  {
    key: 'registration_requires_activation',
    value: 'false',
    type: 'boolean',
    visibility: 'public',
    group_name: 'auth',
    description: 'New accounts stay inactive until an admin activates them.',
  },
  { key: 'default_user_group_id', value: '0', type: 'integer', visibility: 'admin', group_name: 'auth', description: 'Group that new users join.' },
  {
    key: 'require_2fa_for_admins',
    value: 'false',
    type: 'boolean',
    visibility: 'admin',
    group_name: 'auth',
    description: 'Holders of admin.access must turn on two-factor authentication before any admin call works.',
  },
  {
    key: 'session_max_age_days',
    value: '90',
    type: 'integer',
    visibility: 'admin',
    group_name: 'auth',
    min_value: 1,
    max_value: 3650,
    description: 'A session ends this many days after sign-in, however often it is used.',
  },
  {
    key: 'audit_retention_days',
    value: '400',
    type: 'integer',
    visibility: 'admin',
    group_name: 'auth',
    min_value: 30,
    max_value: 3650,
    description: 'Audit log entries older than this many days are removed.',
  },
  {
    key: 'maintenance_mode',
    value: 'false',
    type: 'boolean',
    visibility: 'public',
    group_name: 'general',
    description: 'Show the maintenance page to everyone without admin access and refuse public writes.',
  },
  {
    key: 'club_name',
    value: 'Ronde Tafel 144 Harlingen',
    type: 'string',
    visibility: 'public',
    group_name: 'club',
    description: 'Name of the club, shown on the site and on invoices.',
  },
  { key: 'club_town', value: 'Harlingen', type: 'string', visibility: 'public', group_name: 'club', description: 'Town of the club.' },
  {
    key: 'club_address',
    value: 'Voorstraat 1, 8861 BJ Harlingen',
    type: 'string',
    visibility: 'public',
    group_name: 'club',
    description: 'Postal address of the club, shown in the footer and on invoices.',
  },
  {
    key: 'club_email',
    value: 'kerstactie@example.nl',
    type: 'string',
    visibility: 'public',
    group_name: 'club',
    description: 'E-mail address of the club; contact messages are sent here.',
  },
  {
    key: 'club_facebook_url',
    value: 'https://www.facebook.com/',
    type: 'string',
    visibility: 'public',
    group_name: 'club',
    description: "Link to the club's social media page.",
  },
  {
    key: 'club_website_url',
    value: 'https://www.tafelronde.nl/',
    type: 'string',
    visibility: 'public',
    group_name: 'club',
    description: "Link to the organisation's own site.",
  },
  {
    key: 'package_price',
    value: '75',
    type: 'integer',
    visibility: 'public',
    group_name: 'invoice',
    min_value: 1,
    max_value: 10000,
    description: 'Price of one Christmas package in euro, excluding VAT.',
  },
  {
    key: 'vat_split',
    value: DEFAULT_VAT_SPLIT,
    type: 'json',
    visibility: 'admin',
    group_name: 'invoice',
    description: 'How the package price is split over VAT rates: a list of {label, share_percent, vat_rate}; the shares add up to 100.',
  },
  {
    key: 'club_iban',
    value: 'NL00BANK0000000000',
    type: 'string',
    visibility: 'admin',
    group_name: 'invoice',
    description: 'IBAN printed on invoices for payment.',
  },
  {
    key: 'club_kvk_number',
    value: '00000000',
    type: 'string',
    visibility: 'admin',
    group_name: 'invoice',
    description: 'Chamber of Commerce (KvK) number printed on invoices.',
  },
  {
    key: 'club_vat_id',
    value: 'NL000000000B01',
    type: 'string',
    visibility: 'admin',
    group_name: 'invoice',
    description: 'VAT identification number printed on invoices.',
  },
  {
    key: 'invoice_payment_term_days',
    value: '14',
    type: 'integer',
    visibility: 'admin',
    group_name: 'invoice',
    min_value: 1,
    max_value: 90,
    description: 'Days within which an invoice must be paid.',
  },
  {
    key: 'reminder_auto_days',
    value: '0',
    type: 'integer',
    visibility: 'admin',
    group_name: 'invoice',
    min_value: 0,
    max_value: 365,
    description: 'Send a first payment reminder automatically this many days after an invoice is past due; 0 = off.',
  },
  {
    key: 'geocoder_provider',
    value: 'pdok',
    type: 'string',
    visibility: 'admin',
    group_name: 'geocoder',
    description: 'Address search provider: pdok (Dutch PDOK Locatieserver) or nominatim (a Nominatim-compatible host).',
  },
  {
    key: 'geocoder_url',
    value: 'https://api.pdok.nl/bzk/locatieserver/search/v3_1',
    type: 'string',
    visibility: 'admin',
    group_name: 'geocoder',
    description: 'Base URL of the address search provider.',
  },
  {
    key: 'online_payments',
    value: 'false',
    type: 'boolean',
    visibility: 'admin',
    group_name: 'payments',
    description: "Customers can pay online (iDEAL and the other methods enabled in the club's Mollie account) from their order page.",
  },
  {
    key: 'mollie_api_key',
    value: '',
    type: 'password',
    visibility: 'admin',
    group_name: 'payments',
    description: "The API key of the club's Mollie account (test_… to try it out, live_… for real payments); empty = not connected.",
  },
  // docs/decisions/076: the accountant's journal books on these accounts (common Dutch numbers as defaults).
  {
    key: 'ledger_revenue_21',
    value: '8000',
    type: 'string',
    visibility: 'admin',
    group_name: 'books',
    description: "Ledger account for revenue at 21 % VAT in the accountant's journal.",
  },
  {
    key: 'ledger_revenue_9',
    value: '8010',
    type: 'string',
    visibility: 'admin',
    group_name: 'books',
    description: "Ledger account for revenue at 9 % VAT in the accountant's journal.",
  },
  {
    key: 'ledger_revenue_0',
    value: '8020',
    type: 'string',
    visibility: 'admin',
    group_name: 'books',
    description: "Ledger account for revenue at 0 % VAT in the accountant's journal.",
  },
  {
    key: 'ledger_vat_21',
    value: '1500',
    type: 'string',
    visibility: 'admin',
    group_name: 'books',
    description: "Ledger account for VAT payable at 21 % in the accountant's journal.",
  },
  {
    key: 'ledger_vat_9',
    value: '1510',
    type: 'string',
    visibility: 'admin',
    group_name: 'books',
    description: "Ledger account for VAT payable at 9 % in the accountant's journal.",
  },
  {
    key: 'ledger_debtors',
    value: '1300',
    type: 'string',
    visibility: 'admin',
    group_name: 'books',
    description: "Ledger account for debtors (what customers owe) in the accountant's journal.",
  },
  {
    key: 'ledger_bank',
    value: '1100',
    type: 'string',
    visibility: 'admin',
    group_name: 'books',
    description: "Ledger account for the club's bank account in the accountant's journal (transfers, and payments marked by hand).",
  },
  {
    key: 'ledger_payment_provider',
    value: '1150',
    type: 'string',
    visibility: 'admin',
    group_name: 'books',
    description: "Ledger account for the payment provider (Mollie) in the accountant's journal: online payments in, refunds and chargebacks out.",
  },
  // docs/decisions/071: read in the first club only, whose admins run the deployment.
  {
    key: 'club_signup',
    value: 'false',
    type: 'boolean',
    visibility: 'admin',
    group_name: 'platform',
    description: 'Other clubs can sign up on /aanmelden (of the first club) and, once their e-mail is verified, run their own campaign on this deployment.',
  },
  {
    key: 'club_setup_pending',
    value: 'false',
    type: 'boolean',
    visibility: 'admin',
    group_name: 'platform',
    description: "The club's admins still see the short set-up (name, town, bank, price, first tablers) when they sign in.",
  },
] as const satisfies readonly SettingDefinition[];

export const BUILT_IN_SETTINGS: readonly SettingDefinition[] = DEFINITIONS;

/**
 * The registry's keys as a type: a built-in setting's key, and with `T` only the keys of the
 * settings of that type, so `getIntegerSetting(ctx, 'club_name')` or a misspelt key does not compile.
 */
export type BuiltInSettingKey<T extends SettingType = SettingType> = Extract<(typeof DEFINITIONS)[number], { type: T }>['key'];

export const BUILT_IN_SETTING_KEYS = new Set(BUILT_IN_SETTINGS.map((s) => s.key));
