import { qrModules, qrPng } from '../../platform/qr-code';
import { isValidIban, normaliseIban } from '../settings/setting-rules';

/**
 * The SEPA payment QR code of invoices and invoice mails (docs/architecture.md §5): the European Payments Council's
 * "Quick Response Code: Guidelines to Enable Data Capture for the Initiation of a SEPA Credit Transfer"
 * (EPC069-12), which Dutch and other European banking apps read to fill in a transfer.
 */
export interface EpcPayment {
  iban: string;
  /** Optional since version 002 for payments inside the EEA; left empty when absent. */
  bic?: string;
  /** The beneficiary's name. */
  name: string;
  /** The amount to pay, in cents. */
  amountCents: number;
  /** The unstructured remittance information: the invoice number. */
  remittance: string;
}

const MAX_NAME = 70;
const MAX_REMITTANCE = 140;
const MAX_PAYLOAD_BYTES = 331;
const MAX_AMOUNT_CENTS = 99_999_999_999;

/**
 * A line break inside a field would shift every later field, so free text becomes one line; the
 * standard counts characters, so the cut is by code point, never inside a surrogate pair.
 */
function singleLine(text: string, max: number): string {
  return [
    ...text
      .replace(/[\r\n\t]+/g, ' ')
      .replace(/ {2,}/g, ' ')
      .trim(),
  ]
    .slice(0, max)
    .join('')
    .trimEnd();
}

/** 27225 → 'EUR272.25' (a dot and two decimals, as the standard writes amounts). */
function epcAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 1 || cents > MAX_AMOUNT_CENTS) {
    throw new RangeError(`An EPC QR amount must be 0.01 to 999999999.99 euro, got ${cents} cents`);
  }
  return `EUR${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * The QR code's text: BCD, version 002, character set 1 (UTF-8), SCT, BIC, name, IBAN, amount,
 * purpose, structured reference, unstructured remittance, information, separated by LF. The standard
 * ends the payload with the last populated element, so trailing empty fields (here the information
 * line) are left out rather than written as empty lines.
 */
export function epcPayload(payment: EpcPayment): string {
  const iban = normaliseIban(payment.iban);
  if (!isValidIban(iban)) throw new Error(`Not a valid IBAN for the payment QR: ${payment.iban}`);
  const bic = (payment.bic ?? '').replace(/\s+/g, '').toUpperCase();
  if (bic !== '' && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) throw new Error(`Not a valid BIC for the payment QR: ${payment.bic}`);
  const name = singleLine(payment.name, MAX_NAME);
  if (name === '') throw new Error('The payment QR needs the beneficiary name');

  const fields = ['BCD', '002', '1', 'SCT', bic, name, iban, epcAmount(payment.amountCents), '', '', singleLine(payment.remittance, MAX_REMITTANCE), ''];
  while (fields.at(-1) === '') fields.pop();
  const payload = fields.join('\n');
  const bytes = new TextEncoder().encode(payload).length;
  if (bytes > MAX_PAYLOAD_BYTES) throw new Error(`The payment QR text is ${bytes} bytes, more than the ${MAX_PAYLOAD_BYTES} the standard allows`);
  return payload;
}

export interface QrImageOptions {
  /** Pixels per module; 6 gives a code of about 5 cm on a screen, sharp when a PDF scales it. */
  moduleSize?: number;
  /** Light modules around the code; 4 is what the QR standard asks for. */
  quietZone?: number;
}

/** The payment QR code as a black-and-white PNG, error-correction level M as EPC069-12 requires. */
export async function paymentQrPng(payment: EpcPayment, options: QrImageOptions = {}): Promise<Uint8Array> {
  const moduleSize = options.moduleSize ?? 6;
  const quietZone = options.quietZone ?? 4;
  if (!Number.isInteger(moduleSize) || moduleSize < 1 || moduleSize > 64) throw new RangeError(`Module size must be 1 to 64 pixels, got ${moduleSize}`);
  if (!Number.isInteger(quietZone) || quietZone < 0 || quietZone > 64) throw new RangeError(`Quiet zone must be 0 to 64 modules, got ${quietZone}`);

  return qrPng(await qrModules(epcPayload(payment), 'M'), { moduleSize, quietZone });
}
