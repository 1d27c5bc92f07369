import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors';
import {
  amountToCents,
  EMPTY_FILE,
  IS_CAMT052,
  IS_CAMT054,
  MAX_STATEMENT_BYTES,
  NO_STATEMENT,
  NOT_CAMT053,
  parseCamt053,
  STATEMENT_TOO_LARGE,
} from './camt053';

const fixture = (name: string) => readFileSync(join(process.cwd(), 'test/fixtures/camt053', name));
const bytes = (text: string) => new TextEncoder().encode(text);

/** A one-entry statement of the given version, for the cases the fixtures do not cover. */
function statement(version: string, entry: string, account = '<Acct><Id><IBAN>NL69INGB0123456789</IBAN></Id></Acct>') {
  return bytes(
    `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}"><BkToCstmrStmt>` +
      `<GrpHdr><MsgId>1</MsgId></GrpHdr><Stmt><Id>1</Id>${account}${entry}</Stmt></BkToCstmrStmt></Document>`,
  );
}

async function refusal(input: Uint8Array): Promise<{ status: number; message: string }> {
  try {
    await parseCamt053(input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return { status: (error as AppError).status, message: (error as AppError).message };
  }
  throw new Error('The file was accepted');
}

describe('reading a CAMT.053 statement', () => {
  it('reads the booked euro credits of an ING camt.053.001.02 statement, one per transaction of a batch', async () => {
    const parsed = await parseCamt053(fixture('ing-v02.xml'));
    expect(parsed.accountIban).toBe('NL69INGB0123456789');
    expect([parsed.statementIds, parsed.periodFrom, parsed.periodTo]).toEqual([['20261203-NL69INGB0123456789'], '2026-12-01', '2026-12-03']);
    expect(parsed.entries.map(({ entryKey: _key, ...entry }) => entry)).toEqual([
      {
        entryRef: 'NL69INGB0123456789-20261201-000001',
        bookedAt: '2026-12-01',
        amountCents: 27225,
        counterparty: 'M. de Vries',
        counterpartyIban: 'NL91ABNA0417164300',
        remittance: 'Factuur F2026-0001 kerstpakketten',
      },
      {
        entryRef: 'NL69INGB0123456789-20261202-000002',
        bookedAt: '2026-12-02',
        amountCents: 18150,
        counterparty: 'J. Bakker & Zn.',
        counterpartyIban: 'NL02RABO0123456789',
        remittance: 'kerstpakket bestelling kp 2026 0002',
      },
      {
        entryRef: 'NL69INGB0123456789-20261202-000003',
        bookedAt: '2026-12-02',
        amountCents: 10000,
        counterparty: 'P. Visser',
        counterpartyIban: 'NL44RABO0101010101',
        remittance: 'f20260003',
      },
      {
        entryRef: 'NL69INGB0123456789-20261203-000004',
        bookedAt: '2026-12-03',
        amountCents: 2500,
        counterparty: 'Stichting Vrienden van Harlingen',
        counterpartyIban: 'NL20INGB0001234567',
        remittance: 'Gift kerstactie',
      },
      {
        entryRef: 'NL69INGB0123456789-20261203-000006/1',
        bookedAt: '2026-12-03',
        amountCents: 9075,
        counterparty: 'A. Hoekstra',
        counterpartyIban: 'NL39RABO0300065264',
        remittance: 'F2026-0004',
      },
      {
        entryRef: 'NL69INGB0123456789-20261203-000006/2',
        bookedAt: '2026-12-03',
        amountCents: 5000,
        counterparty: 'S. Dijkstra',
        counterpartyIban: 'NL56ABNA0512345678',
        remittance: 'Bijdrage goede doel',
      },
    ]);
    expect(parsed.entries.map((e) => e.entryKey)).toEqual(parsed.entries.map((e) => `NL69INGB0123456789:${e.entryRef}`));
    // The debit, the pending entry and nothing else are left out; the dollar credit is named.
    expect(parsed.skipped).toEqual([
      {
        entryRef: 'NL69INGB0123456789-20261203-000007',
        bookedAt: '2026-12-03',
        reason: 'Bedrag in USD: alleen bijschrijvingen in euro kunnen een factuur betalen.',
      },
    ]);
  });

  it('reads a camt.053.001.08 statement with prefixed tags, Sts/Cd, DtTm, Dbtr/Pty and structured references', async () => {
    const parsed = await parseCamt053(fixture('rabobank-v08.xml'));
    expect(parsed.accountIban).toBe('NL44RABO0123456789');
    // No FrToDt in this export: the period stays unknown rather than guessed.
    expect([parsed.statementIds, parsed.periodFrom, parsed.periodTo]).toEqual([['NL44RABO0123456789-2026-12-10'], null, null]);
    expect(parsed.entries.map((e) => [e.entryRef, e.bookedAt, e.amountCents, e.counterparty, e.counterpartyIban, e.remittance])).toEqual([
      ['RABO-2026-12-10-000001', '2026-12-10', 9075, 'H. van der Meer', 'NL18ABNA0484869150', 'F2026 0005'],
      ['RABO-2026-12-10-000002', '2026-12-10', 18150, 'Bakkerij De Haven', 'NL80RABO0112233445', 'Bestelling KP-2026-0006 twee pakketten'],
      ['', '2026-12-10', 1000, 'T. Zijlstra', 'NL69INGB0123456789', 'Donatie'],
      ['RABO-2026-12-10-000006-A', '2026-12-10', 9075, 'W. Kingma', '', 'F2026-0007'],
      ['RABO-2026-12-10-000006-B', '2026-12-10', 27225, 'R. de Boer', '', 'Kerstpakketten KP20260008'],
    ]);
    expect(parsed.skipped).toEqual([
      { entryRef: 'RABO-2026-12-10-000005', bookedAt: '2026-12-10', reason: 'Bedrag in GBP: alleen bijschrijvingen in euro kunnen een factuur betalen.' },
    ]);
  });

  it('names every statement of a file and the whole period they cover', async () => {
    const stmt = (id: string, from: string, to: string) =>
      `<Stmt><Id>${id}</Id><FrToDt><FrDtTm>${from}</FrDtTm><ToDtTm>${to}</ToDtTm></FrToDt><Acct><Id><IBAN>NL69INGB0123456789</IBAN></Id></Acct></Stmt>`;
    const parsed = await parseCamt053(
      bytes(
        '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>1</MsgId></GrpHdr>' +
          stmt('S-2', '2026-12-02T00:00:00', '2026-12-02T23:59:59+01:00') +
          stmt('S-1', '2026-12-01T00:00:00', '2026-12-01T23:59:59') +
          stmt('S-2', '2026-12-02T00:00:00', '2026-12-02T23:59:59') +
          '</BkToCstmrStmt></Document>',
      ),
    );
    expect([parsed.statementIds, parsed.periodFrom, parsed.periodTo]).toEqual([['S-2', 'S-1'], '2026-12-01', '2026-12-02']);
  });

  it('keys a booking without a bank reference by a SHA-256 of its content, the same on every import', async () => {
    const first = await parseCamt053(fixture('rabobank-v08.xml'));
    const again = await parseCamt053(fixture('rabobank-v08.xml'));
    const donation = first.entries[2]!;
    expect(donation.entryKey).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(again.entries[2]!.entryKey).toBe(donation.entryKey);
  });

  it('gives two identical bookings without a bank reference two keys, and drops a booking repeated under the same reference', async () => {
    const credit = (ref: string) =>
      `<Ntry>${ref}<Amt Ccy="EUR">90.75</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-12-05</Dt></BookgDt>` +
      '<NtryDtls><TxDtls><RltdPties><Dbtr><Nm>K. Postma</Nm></Dbtr></RltdPties><RmtInf><Ustrd>F2026-0009</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>';
    const twice = await parseCamt053(statement('02', credit('') + credit('')));
    expect(twice.entries).toHaveLength(2);
    expect(new Set(twice.entries.map((e) => e.entryKey)).size).toBe(2);
    const repeated = await parseCamt053(statement('02', credit('<AcctSvcrRef>R-1</AcctSvcrRef>') + credit('<AcctSvcrRef>R-1</AcctSvcrRef>')));
    expect(repeated.entries.map((e) => e.entryRef)).toEqual(['R-1']);
  });

  it('falls back to NtryRef, then to the EndToEndId for the reference shown, and reads AddtlNtryInf when there is no remittance', async () => {
    const parsed = await parseCamt053(
      statement(
        '04',
        '<Ntry><NtryRef>N-7</NtryRef><Amt Ccy="EUR">1.5</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-12-06</Dt></BookgDt><AddtlNtryInf>KP-2026-0010 via kas</AddtlNtryInf></Ntry>' +
          '<Ntry><Amt Ccy="EUR">2.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-12-06</Dt></BookgDt><NtryDtls><TxDtls><Refs><EndToEndId>E2E-42</EndToEndId></Refs>' +
          '<RltdPties><UltmtDbtr><Nm>Fam. Kramer</Nm></UltmtDbtr></RltdPties><RmtInf><Ustrd>dank</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>',
      ),
    );
    expect(parsed.entries.map((e) => [e.entryRef, e.amountCents, e.counterparty, e.remittance])).toEqual([
      ['N-7', 150, '', 'KP-2026-0010 via kas'],
      ['E2E-42', 200, 'Fam. Kramer', 'dank'],
    ]);
    // A payer's EndToEndId is not unique: the key is a digest, not the id.
    expect(parsed.entries[1]!.entryKey).toMatch(/^sha256:/);
  });

  it('accepts an empty statement (no entries) and skips a credit without a booking date or readable amount', async () => {
    expect(await parseCamt053(statement('02', ''))).toEqual({
      accountIban: 'NL69INGB0123456789',
      entries: [],
      skipped: [],
      statementIds: ['1'],
      periodFrom: null,
      periodTo: null,
    });
    const parsed = await parseCamt053(
      statement(
        '02',
        '<Ntry><AcctSvcrRef>A</AcctSvcrRef><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts></Ntry>' +
          '<Ntry><AcctSvcrRef>B</AcctSvcrRef><Amt Ccy="EUR">10,00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-12-06</Dt></BookgDt></Ntry>',
      ),
    );
    expect(parsed.entries).toEqual([]);
    expect(parsed.skipped).toEqual([
      { entryRef: 'A', bookedAt: '', reason: 'Deze bijschrijving heeft geen boekdatum.' },
      { entryRef: 'B', bookedAt: '2026-12-06', reason: 'Het bedrag van deze bijschrijving is onleesbaar.' },
    ]);
  });

  it.each([
    ['an empty file', bytes(''), 400, EMPTY_FILE],
    ['only white space', bytes('  \n '), 400, EMPTY_FILE],
    ['plain text', bytes('Datum;Bedrag;Omschrijving\n2026-12-01;272,25;F2026-0001'), 400, NOT_CAMT053],
    ['an HTML page', bytes('<!DOCTYPE html><html><head><title>ING</title></head><body><p>Inloggen</p></body></html>'), 400, NOT_CAMT053],
    ['well-formed HTML without a doctype', bytes('<html><body><p>Inloggen</p></body></html>'), 400, NOT_CAMT053],
    ['XML with an entity declaration', bytes('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><Document>&a;</Document>'), 400, NOT_CAMT053],
    ['broken XML', bytes('<Document><BkToCstmrStmt><Stmt></BkToCstmrStmt>'), 400, NOT_CAMT053],
    ['a camt.054 notification', fixture('notification-camt054.xml'), 400, IS_CAMT054],
    [
      'a camt.052 report',
      bytes('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.02"><BkToCstmrAcctRpt><Rpt/></BkToCstmrAcctRpt></Document>'),
      400,
      IS_CAMT052,
    ],
    ['a pain.001 payment order', bytes('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn/></Document>'), 400, NOT_CAMT053],
    ['a statement under a foreign namespace', bytes('<Document xmlns="urn:example:other"><BkToCstmrStmt><Stmt/></BkToCstmrStmt></Document>'), 400, NOT_CAMT053],
    [
      'a statement message without a statement',
      bytes('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>1</MsgId></GrpHdr></BkToCstmrStmt></Document>'),
      400,
      NO_STATEMENT,
    ],
    ['a file over 5 MB', new Uint8Array(MAX_STATEMENT_BYTES + 1), 413, STATEMENT_TOO_LARGE],
  ])('refuses %s with a Dutch explanation', async (_what, input, status, message) => {
    expect(await refusal(input)).toEqual({ status, message });
  });

  it('takes a byte order mark in its stride', async () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...fixture('ing-v02.xml')]);
    expect((await parseCamt053(withBom)).entries).toHaveLength(6);
  });
});

describe('amounts', () => {
  it.each([
    ['272.25', 27225],
    ['0272.50', 27250],
    ['90.7', 9070],
    ['100', 10000],
    ['5.10000', 510],
    ['0.01', 1],
  ])('reads %s as %i cents', (text, cents) => {
    expect(amountToCents(text)).toBe(cents);
  });

  it.each(['272,25', '-5.00', '1.005', '', 'EUR 5', '1e3'])('refuses %j', (text) => {
    expect(amountToCents(text)).toBeNull();
  });
});
