import { describe, expect, it } from 'vitest';
import { findMentions, matchEntries, type CandidateOrder, type MatchLookup } from './payment-matching';

describe('finding invoice numbers and order references in a remittance', () => {
  it.each([
    ['Factuur F2026-0001', [{ kind: 'invoice_number', value: 'F2026-0001' }]],
    ['f2026 0001', [{ kind: 'invoice_number', value: 'F2026-0001' }]],
    ['F20260001', [{ kind: 'invoice_number', value: 'F2026-0001' }]],
    ['betaling kp 2026 0002', [{ kind: 'reference', value: 'KP-2026-0002' }]],
    [
      'KP20260008 en Kp-2026-0009',
      [
        { kind: 'reference', value: 'KP-2026-0008' },
        { kind: 'reference', value: 'KP-2026-0009' },
      ],
    ],
    [
      'KP-2026-0003 / F2026-0002 / F2026-0002',
      [
        { kind: 'reference', value: 'KP-2026-0003' },
        { kind: 'invoice_number', value: 'F2026-0002' },
      ],
    ],
  ])('%j names %j', (remittance, mentions) => {
    expect(findMentions(remittance)).toEqual(mentions);
  });

  it.each(['REF20260001', 'F2026-00012', 'IBAN NL91F20260001X', 'F202-60001', 'Gift kerstactie', 'SKP-2026-0001'])('%j names nothing', (remittance) => {
    expect(findMentions(remittance)).toEqual([]);
  });
});

function order(id: number, extra: Partial<CandidateOrder> = {}): CandidateOrder {
  const n = String(id).padStart(4, '0');
  return {
    id,
    reference: `KP-2026-${n}`,
    invoiceNumber: `F2026-${n}`,
    cancelled: false,
    paid: false,
    totalCents: 27225,
    paidCents: 0,
    settledByBank: false,
    ...extra,
  };
}

function lookup(orders: CandidateOrder[], appliedKeys: [string, number | null][] = []): MatchLookup {
  return {
    ordersByInvoiceNumber: new Map(orders.filter((o) => o.invoiceNumber).map((o) => [o.invoiceNumber!, o])),
    ordersByReference: new Map(orders.map((o) => [o.reference, o])),
    appliedKeys: new Map(appliedKeys),
  };
}

const entry = (entryKey: string, amountCents: number, remittance: string) => ({ entryKey, amountCents, remittance });

describe('matching credits to orders', () => {
  it('matches the exact total, flags another amount, and leaves a credit naming no order unmatched', () => {
    const orders = [order(1), order(2, { totalCents: 18150, invoiceNumber: null }), order(3, { totalCents: 9075 })];
    expect(
      matchEntries(
        [
          entry('a', 27225, 'Factuur F2026-0001'),
          entry('b', 18150, 'kp 2026 0002'),
          entry('c', 10000, 'f20260003'),
          entry('d', 2500, 'Gift'),
          entry('e', 500, 'F2026-0099'),
        ],
        lookup(orders),
      ),
    ).toEqual([
      { status: 'matched', orderId: 1 },
      { status: 'matched', orderId: 2 },
      { status: 'amount_mismatch', orderId: 3 },
      { status: 'unmatched', orderId: null },
      { status: 'unmatched', orderId: null },
    ]);
  });

  it('says already_imported for a booking that paid an order before, whatever its text', () => {
    expect(matchEntries([entry('paid-before', 27225, 'F2026-0001')], lookup([order(1)], [['paid-before', 1]]))).toEqual([
      { status: 'already_imported', orderId: 1 },
    ]);
  });

  it('does not match a credited (cancelled) order', () => {
    expect(matchEntries([entry('a', 27225, 'F2026-0001')], lookup([order(1, { cancelled: true })]))).toEqual([{ status: 'unmatched', orderId: 1 }]);
  });

  it('does not match an order a bank booking already paid, nor a second credit for the same order in one statement', () => {
    expect(matchEntries([entry('a', 27225, 'F2026-0001')], lookup([order(1, { paid: true, settledByBank: true })]))).toEqual([
      { status: 'unmatched', orderId: 1 },
    ]);
    expect(matchEntries([entry('a', 27225, 'F2026-0001'), entry('b', 27225, 'KP-2026-0001')], lookup([order(1)]))).toEqual([
      { status: 'matched', orderId: 1 },
      { status: 'unmatched', orderId: 1 },
    ]);
  });

  it('matches the rest of an order that part-payments paid in part, and flags its whole total then', () => {
    const partPaid = order(1, { paidCents: 10000 });
    expect(matchEntries([entry('a', 17225, 'F2026-0001')], lookup([partPaid]))).toEqual([{ status: 'matched', orderId: 1 }]);
    expect(matchEntries([entry('a', 27225, 'F2026-0001')], lookup([partPaid]))).toEqual([{ status: 'amount_mismatch', orderId: 1 }]);
  });

  it('matches an order that was marked paid by hand (no bank booking yet)', () => {
    expect(matchEntries([entry('a', 27225, 'F2026-0001')], lookup([order(1, { paid: true })]))).toEqual([{ status: 'matched', orderId: 1 }]);
  });

  it('picks the named order whose total fits when a remittance names several', () => {
    const orders = [order(1), order(2, { totalCents: 9075 })];
    expect(matchEntries([entry('a', 9075, 'F2026-0001 F2026-0002')], lookup(orders))).toEqual([{ status: 'matched', orderId: 2 }]);
    expect(matchEntries([entry('a', 100, 'F2026-0001 F2026-0002')], lookup(orders))).toEqual([{ status: 'amount_mismatch', orderId: 1 }]);
  });
});
