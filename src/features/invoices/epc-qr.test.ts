import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodeQrPng } from '../../../test/support/qr-decode';
import { epcPayload, paymentQrPng, type EpcPayment } from './epc-qr';

const payment: EpcPayment = {
  iban: 'nl91 abna 0417 1643 00',
  name: 'Ronde Tafel 144 Harlingen',
  amountCents: 27225,
  remittance: 'F2026-0007',
};

const EXPECTED = 'BCD\n002\n1\nSCT\n\nRonde Tafel 144 Harlingen\nNL91ABNA0417164300\nEUR272.25\n\n\nF2026-0007';

describe('epcPayload (EPC069-12, SEPA Credit Transfer)', () => {
  it('writes the exact text for an invoice of € 272,25', () => {
    expect(epcPayload(payment)).toBe(EXPECTED);
  });

  it('ends with the remittance: no empty information line and no trailing line break', () => {
    const lines = epcPayload(payment).split('\n');
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toBe('F2026-0007');
  });

  it('ends with the amount when there is no remittance', () => {
    expect(epcPayload({ ...payment, remittance: ' ' })).toBe('BCD\n002\n1\nSCT\n\nRonde Tafel 144 Harlingen\nNL91ABNA0417164300\nEUR272.25');
  });

  it('writes a given BIC without spaces in upper case', () => {
    expect(epcPayload({ ...payment, bic: 'abna nl 2a' }).split('\n')[4]).toBe('ABNANL2A');
    expect(epcPayload({ ...payment, bic: 'INGBNL2AXXX' }).split('\n')[4]).toBe('INGBNL2AXXX');
  });

  it('writes amounts in euros with a dot and two decimals, from 0.01 to 999999999.99', () => {
    const amount = (amountCents: number) => epcPayload({ ...payment, amountCents }).split('\n')[7];
    expect(amount(1)).toBe('EUR0.01');
    expect(amount(7500)).toBe('EUR75.00');
    expect(amount(123456789)).toBe('EUR1234567.89');
    expect(amount(99_999_999_999)).toBe('EUR999999999.99');
    for (const bad of [0, -100, 100_000_000_000, 12.5]) expect(() => amount(bad), String(bad)).toThrow(RangeError);
  });

  it('keeps the name to one line of at most 70 characters and the remittance to 140', () => {
    const lines = epcPayload({ ...payment, name: `Ronde Tafel\r\n144 ${'Ë'.repeat(80)}`, remittance: `F2026-0007\n${'x'.repeat(200)}` }).split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[5]).toBe(`Ronde Tafel 144 ${'Ë'.repeat(54)}`);
    expect([...lines[5]!]).toHaveLength(70);
    expect(lines[10]).toBe(`F2026-0007 ${'x'.repeat(129)}`);
    expect(lines[10]).toHaveLength(140);
  });

  it('refuses an invalid IBAN or BIC, an empty name, and text over 331 bytes', () => {
    expect(() => epcPayload({ ...payment, iban: 'NL91ABNA0417164301' })).toThrow('Not a valid IBAN for the payment QR: NL91ABNA0417164301');
    expect(() => epcPayload({ ...payment, bic: 'ABNA' })).toThrow('Not a valid BIC for the payment QR: ABNA');
    expect(() => epcPayload({ ...payment, name: ' \n ' })).toThrow('The payment QR needs the beneficiary name');
    // 70 characters of 4 bytes each: 280 bytes of name alone.
    expect(() => epcPayload({ ...payment, name: '😀'.repeat(70) })).toThrow('The payment QR text is 337 bytes, more than the 331 the standard allows');
  });
});

/** The module at (row, col) of a QR code drawn with the default 6-pixel modules and 4-module quiet zone. */
function moduleReader(png: Uint8Array) {
  const image = PNG.sync.read(Buffer.from(png));
  const moduleSize = 6;
  const quietZone = 4;
  const size = image.width / moduleSize - 2 * quietZone;
  const pixel = (x: number, y: number) => image.data[(y * image.width + x) * 4]!;
  const dark = (row: number, col: number) => pixel((col + quietZone) * moduleSize + 3, (row + quietZone) * moduleSize + 3) === 0;
  return { image, size, pixel, dark, quietPixels: quietZone * moduleSize };
}

describe('paymentQrPng', () => {
  it('reads back, like a banking app, to exactly the payload with every field right', async () => {
    const text = decodeQrPng(await paymentQrPng(payment));
    expect(text).toBe(EXPECTED);
    const [service, version, charset, identification, bic, name, iban, amount, purpose, reference, remittance] = text!.split('\n');
    expect({ service, version, charset, identification, bic, name, iban, amount, purpose, reference, remittance }).toEqual({
      service: 'BCD',
      version: '002',
      charset: '1',
      identification: 'SCT',
      bic: '',
      name: 'Ronde Tafel 144 Harlingen',
      iban: 'NL91ABNA0417164300',
      amount: 'EUR272.25',
      purpose: '',
      reference: '',
      remittance: 'F2026-0007',
    });
  });

  it('carries a name with accents in UTF-8 (character set 1)', async () => {
    const text = decodeQrPng(await paymentQrPng({ ...payment, name: 'Stichting Zoë & Één' }));
    expect(text?.split('\n')[5]).toBe('Stichting Zoë & Één');
  });

  it('uses error-correction level M, as the standard requires', async () => {
    const { size, dark } = moduleReader(await paymentQrPng(payment));
    // The format information beside the top-left finder (column 8), bit 0 at the top (ISO/IEC 18004 §7.9).
    const rows = [0, 1, 2, 3, 4, 5, 7, 8, size - 7, size - 6, size - 5, size - 4, size - 3, size - 2, size - 1];
    const bits = rows.reduce((sum, row, i) => sum | ((dark(row, 8) ? 1 : 0) << i), 0);
    const format = bits ^ 0b101010000010010;
    // The two highest bits name the level: 01 L, 00 M, 11 Q, 10 H.
    expect(format >> 13).toBe(0b00);
  });

  it('draws dark modules on a white quiet zone of 4 modules, 6 pixels a module', async () => {
    const { image, size, pixel, dark, quietPixels } = moduleReader(await paymentQrPng(payment));
    expect(image.width).toBe(image.height);
    expect((size - 17) % 4).toBe(0);
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const inQuietZone = x < quietPixels || y < quietPixels || x >= image.width - quietPixels || y >= image.height - quietPixels;
        if (inQuietZone) expect(pixel(x, y), `${x},${y}`).toBe(255);
      }
    }
    // The three finder patterns' outer corners are dark.
    expect([dark(0, 0), dark(0, size - 1), dark(size - 1, 0)]).toEqual([true, true, true]);
  });

  it('draws bigger modules on request', async () => {
    const small = PNG.sync.read(Buffer.from(await paymentQrPng(payment)));
    const big = await paymentQrPng(payment, { moduleSize: 8, quietZone: 4 });
    expect(PNG.sync.read(Buffer.from(big)).width).toBe((small.width / 6) * 8);
    expect(decodeQrPng(big)).toBe(EXPECTED);
    await expect(paymentQrPng(payment, { moduleSize: 0 })).rejects.toThrow('Module size must be 1 to 64 pixels, got 0');
  });
});
