/**
 * Reads the incoming credit transfers of a CAMT.053 bank statement (ISO 20022 `BkToCstmrStmt`,
 * camt.053.001.02 … .08), as the Dutch banks (ING, Rabobank, ABN AMRO, bunq) export it.
 *
 * XML is read with fast-xml-parser: a maintained pure-JS parser without native code or Node built-ins, so
 * the same code runs on Node and inside workerd, and it never fetches external entities. A statement is
 * refused outright when it carries a DOCTYPE (no bank file has one, and it is the door to entity
 * expansion attacks).
 */
import type { X2jOptions } from 'fast-xml-parser';
import { AppError } from '../../core/errors';
import { sha256Hex } from '../../platform/crypto';

/** Large enough for a year of a club account's statements; a bigger upload is refused before parsing. */
export const MAX_STATEMENT_BYTES = 5 * 1024 * 1024;

export const NOT_CAMT053 = 'Dit bestand is geen CAMT.053-bankafschrift (XML). Download het afschrift als CAMT.053 bij je bank.';
export const EMPTY_FILE = 'Het bestand is leeg. Kies een CAMT.053-bankafschrift (XML).';
export const STATEMENT_TOO_LARGE = 'Het bestand is te groot (maximaal 5 MB). Download een afschrift over een kortere periode.';
export const NO_STATEMENT = 'Dit CAMT.053-bestand bevat geen afschrift. Download het afschrift opnieuw bij je bank.';
export const IS_CAMT054 =
  'Dit is een CAMT.054-bestand (losse meldingen van bij- en afschrijvingen), geen CAMT.053-bankafschrift. Download het afschrift als CAMT.053 bij je bank.';
export const IS_CAMT052 =
  'Dit is een CAMT.052-bestand (een tussentijds rekeningoverzicht), geen CAMT.053-bankafschrift. Download het afschrift als CAMT.053 bij je bank.';

export interface StatementEntry {
  /** The bank's reference (AcctSvcrRef, else NtryRef, else the payer's EndToEndId); '' when there is none. */
  entryRef: string;
  /** Identifies this booking across imports (see entryKeyOf). */
  entryKey: string;
  /** YYYY-MM-DD, the booking date as the bank states it. */
  bookedAt: string;
  amountCents: number;
  counterparty: string;
  counterpartyIban: string;
  remittance: string;
}

export interface SkippedEntry {
  entryRef: string;
  bookedAt: string;
  /** Why it is not in the list, in Dutch, for the preview. */
  reason: string;
}

export interface ParsedStatement {
  /** The IBAN of the club's account the statement is for ('' when the bank gave another kind of id). */
  accountIban: string;
  /** Booked incoming transfers in euros, one per transaction, in the statement's order. */
  entries: StatementEntry[];
  /** Credits that cannot pay an invoice (another currency, no readable amount or date). */
  skipped: SkippedEntry[];
  /** The statements' own ids (`Stmt/Id`), each once, in the file's order. */
  statementIds: string[];
  /** The period the statements cover (`FrToDt`, YYYY-MM-DD): the earliest start and the latest end; null when absent. */
  periodFrom: string | null;
  periodTo: string | null;
}

type Node = unknown;

// fast-xml-parser is imported when a statement is read (parseCamt053), not when the server or a Worker
// isolate starts: most starts never read one.
type XmlLibrary = typeof import('fast-xml-parser');

const PARSER_OPTIONS: X2jOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Namespace prefixes differ per bank (`<Document>`, `<ns2:Document>`); the xmlns attributes are kept
  // (removeNSPrefix would drop them) so the namespace can be checked.
  transformTagName: (name) => name.replace(/^[^:]*:/, ''),
  // Amounts, references with leading zeros and dates stay text: they are read exactly, below.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
};

function isObject(node: Node): node is Record<string, Node> {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

/** The child elements of that name; an element that occurs once is not an array in the parser's output. */
function all(node: Node, name: string): Node[] {
  if (!isObject(node)) return [];
  const value = node[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function one(node: Node, ...path: string[]): Node {
  let current = node;
  for (const name of path) current = all(current, name)[0];
  return current;
}

function text(node: Node): string {
  if (typeof node === 'string') return node.trim();
  if (isObject(node) && typeof node['#text'] === 'string') return node['#text'].trim();
  return '';
}

function textAt(node: Node, ...path: string[]): string {
  return text(one(node, ...path));
}

/** The first non-empty text among several paths. */
function firstText(node: Node, paths: string[][]): string {
  for (const path of paths) {
    const value = textAt(node, ...path);
    if (value) return value;
  }
  return '';
}

function attribute(node: Node, name: string): string {
  return isObject(node) && typeof node[`@_${name}`] === 'string' ? (node[`@_${name}`] as string).trim() : '';
}

/** ISO 20022 amounts are decimal text ("272.25"); euros have two decimals, more must be zeros. */
export function amountToCents(value: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,5}))?$/.exec(value.trim());
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(5, '0');
  if (fraction.slice(2) !== '000') return null;
  return Number(match[1]) * 100 + Number(fraction.slice(0, 2));
}

/** The day of an ISO date or date-time as the bank wrote it, or '' when it is none. */
function dayOf(value: string): string {
  // A DtTm carries the bank's local time ("2026-11-23T09:12:00+01:00"): its date part is the day.
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : '';
}

function dateOf(node: Node): string {
  return dayOf(firstText(node, [['Dt'], ['DtTm']]));
}

function namespacesOf(root: Node): string[] {
  if (!isObject(root)) return [];
  return Object.entries(root)
    .filter(([key, value]) => (key === '@_xmlns' || key.startsWith('@_xmlns:')) && typeof value === 'string')
    .map(([, value]) => value as string);
}

/** Parses the text of a file into its XML tree, or explains in Dutch why it is not a CAMT.053 statement. */
function statementsOf(xml: string, library: XmlLibrary): Node[] {
  if (xml.trim() === '') throw new AppError('STATEMENT_EMPTY', EMPTY_FILE);
  if (/<!DOCTYPE/i.test(xml) || library.XMLValidator.validate(xml) !== true) throw new AppError('NOT_CAMT053', NOT_CAMT053);
  let tree: Node;
  try {
    tree = new library.XMLParser(PARSER_OPTIONS).parse(xml);
  } catch {
    throw new AppError('NOT_CAMT053', NOT_CAMT053);
  }
  const document = one(tree, 'Document');
  const namespaces = namespacesOf(document);
  if (all(document, 'BkToCstmrDbtCdtNtfctn').length > 0 || namespaces.some((ns) => ns.includes(':camt.054.'))) throw new AppError('IS_CAMT054', IS_CAMT054);
  if (all(document, 'BkToCstmrAcctRpt').length > 0 || namespaces.some((ns) => ns.includes(':camt.052.'))) throw new AppError('IS_CAMT052', IS_CAMT052);
  const statement = all(document, 'BkToCstmrStmt');
  // A file without a namespace is taken on its structure; one with namespaces must name camt.053.
  const camtNamespace = namespaces.length === 0 || namespaces.some((ns) => /^urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.\d{2}$/.test(ns));
  if (statement.length !== 1 || !camtNamespace) throw new AppError('NOT_CAMT053', NOT_CAMT053);
  const statements = all(statement[0], 'Stmt');
  if (statements.length === 0) throw new AppError('NO_STATEMENT', NO_STATEMENT);
  return statements;
}

/** `Sts` is a code in .02 – .07 (`<Sts>BOOK</Sts>`) and a choice in .08 (`<Sts><Cd>BOOK</Cd></Sts>`). */
function isBooked(entry: Node): boolean {
  return (textAt(entry, 'Sts', 'Cd') || textAt(entry, 'Sts')).toUpperCase() === 'BOOK';
}

function counterpartyName(tx: Node): string {
  // .02 – .07 name the payer in Dbtr/Nm, .08 in Dbtr/Pty/Nm; the ultimate debtor when the payer is a bank.
  return firstText(tx, [
    ['RltdPties', 'Dbtr', 'Nm'],
    ['RltdPties', 'Dbtr', 'Pty', 'Nm'],
    ['RltdPties', 'UltmtDbtr', 'Nm'],
    ['RltdPties', 'UltmtDbtr', 'Pty', 'Nm'],
  ]);
}

function remittanceOf(tx: Node, entry: Node): string {
  const parts: string[] = [];
  for (const info of all(tx, 'RmtInf')) {
    for (const line of all(info, 'Ustrd')) parts.push(text(line));
    for (const structured of all(info, 'Strd')) {
      for (const creditorRef of all(structured, 'CdtrRefInf')) parts.push(textAt(creditorRef, 'Ref'));
      for (const extra of all(structured, 'AddtlRmtInf')) parts.push(text(extra));
    }
  }
  const joined = parts.filter(Boolean).join(' ').replace(/\s+/g, ' ').trim();
  // Some exports carry the description only as free text beside the transaction.
  return joined || firstText(tx, [['AddtlTxInf']]) || textAt(entry, 'AddtlNtryInf');
}

/** The payer's IBAN as one word in capitals (exports differ: 'NL18 ABNA 0484 8691 50'). */
function ibanOf(tx: Node): string {
  return textAt(tx, 'RltdPties', 'DbtrAcct', 'Id', 'IBAN').replace(/\s+/g, '').toUpperCase();
}

/** The bank's own references are unique per account; a payer's EndToEndId is not (many send 'NOTPROVIDED'). */
function usableEndToEndId(tx: Node): string {
  const id = textAt(tx, 'Refs', 'EndToEndId');
  return id && id.toUpperCase() !== 'NOTPROVIDED' ? id : '';
}

interface RawCredit {
  /** A reference the bank assigned (unique for the account), or ''. */
  bankRef: string;
  shownRef: string;
  bookedAt: string;
  amount: { value: string; currency: string };
  counterparty: string;
  counterpartyIban: string;
  remittance: string;
}

/** One credit per transaction: a batch booking (several TxDtls) is split when each carries its amount. */
function creditsOf(entry: Node): RawCredit[] {
  if (!isBooked(entry)) return [];
  const entryRef = firstText(entry, [['AcctSvcrRef'], ['NtryRef']]);
  // A booked entry carries its booking date; the value date stands in for exports that leave it out.
  const bookedAt = dateOf(one(entry, 'BookgDt')) || dateOf(one(entry, 'ValDt'));
  const entryAmount = { value: text(one(entry, 'Amt')), currency: attribute(one(entry, 'Amt'), 'Ccy') };
  const entryCredit = textAt(entry, 'CdtDbtInd').toUpperCase() === 'CRDT';
  const transactions = all(entry, 'NtryDtls').flatMap((details) => all(details, 'TxDtls'));

  const txAmount = (tx: Node) => {
    // .04 and later: TxDtls/Amt; .02: TxDtls/AmtDtls/TxAmt/Amt.
    const node = one(tx, 'Amt') ?? one(tx, 'AmtDtls', 'TxAmt', 'Amt');
    return node === undefined ? null : { value: text(node), currency: attribute(node, 'Ccy') };
  };
  const splittable = transactions.length > 1 && transactions.every((tx) => txAmount(tx) !== null);

  if (!splittable) {
    if (!entryCredit) return [];
    const tx = transactions[0];
    const remittance =
      transactions.length > 1
        ? transactions
            .map((t) => remittanceOf(t, {}))
            .filter(Boolean)
            .join(' ')
        : remittanceOf(tx, entry);
    return [
      {
        bankRef: entryRef || textAt(tx, 'Refs', 'AcctSvcrRef'),
        shownRef: entryRef || textAt(tx, 'Refs', 'AcctSvcrRef') || usableEndToEndId(tx),
        bookedAt,
        amount: entryAmount,
        counterparty: counterpartyName(tx),
        counterpartyIban: ibanOf(tx),
        remittance: remittance || textAt(entry, 'AddtlNtryInf'),
      },
    ];
  }

  return transactions.flatMap((tx, index) => {
    const indicator = textAt(tx, 'CdtDbtInd').toUpperCase();
    if (indicator ? indicator !== 'CRDT' : !entryCredit) return [];
    // Each part of a batch needs a reference of its own: the bank's per transaction, else the entry's with
    // the position (a statement lists a batch's parts in a fixed order).
    const ownRef = textAt(tx, 'Refs', 'AcctSvcrRef');
    const bankRef = ownRef || (entryRef ? `${entryRef}/${index + 1}` : '');
    return [
      {
        bankRef,
        shownRef: bankRef || usableEndToEndId(tx),
        bookedAt,
        amount: txAmount(tx)!,
        counterparty: counterpartyName(tx),
        counterpartyIban: ibanOf(tx),
        remittance: remittanceOf(tx, entry),
      },
    ];
  });
}

/**
 * The key that says "this booking" across imports: the account and the bank's reference when there is
 * one (a reference is unique per account, not across banks); otherwise a SHA-256 of what the booking
 * consists of, with its position among identical bookings of the file (a customer who pays twice on one
 * day with the same text made two bookings, not one).
 */
async function entryKeyOf(accountIban: string, credit: RawCredit, amountCents: number, occurrence: number): Promise<string> {
  if (credit.bankRef) return `${accountIban}:${credit.bankRef}`;
  const digest = sha256Hex(
    JSON.stringify([accountIban, credit.bookedAt, amountCents, credit.counterpartyIban, credit.remittance, credit.shownRef, occurrence]),
  );
  return `sha256:${digest}`;
}

const skippedReason = {
  currency: (currency: string) => `Bedrag in ${currency || 'een onbekende munt'}: alleen bijschrijvingen in euro kunnen een factuur betalen.`,
  amount: 'Het bedrag van deze bijschrijving is onleesbaar.',
  date: 'Deze bijschrijving heeft geen boekdatum.',
};

/**
 * The booked credits of a CAMT.053 file in euros, one per transaction. Throws AppError 400 (413 when too
 * large) with a Dutch text for anything that is not a CAMT.053 statement; never anything else.
 */
export async function parseCamt053(bytes: Uint8Array): Promise<ParsedStatement> {
  if (bytes.length > MAX_STATEMENT_BYTES) throw new AppError('STATEMENT_TOO_LARGE', STATEMENT_TOO_LARGE);
  if (bytes.length === 0) throw new AppError('STATEMENT_EMPTY', EMPTY_FILE);
  // ISO 20022 messages are UTF-8; a BOM is dropped by the decoder.
  const statements = statementsOf(new TextDecoder('utf-8').decode(bytes), await import('fast-xml-parser'));

  const entries: StatementEntry[] = [];
  const skipped: SkippedEntry[] = [];
  const seenKeys = new Set<string>();
  const occurrences = new Map<string, number>();
  let accountIban = '';
  const statementIds: string[] = [];
  let periodFrom: string | null = null;
  let periodTo: string | null = null;
  for (const statement of statements) {
    const iban = textAt(statement, 'Acct', 'Id', 'IBAN').replace(/\s+/g, '').toUpperCase();
    accountIban ||= iban;
    const id = textAt(statement, 'Id');
    if (id && !statementIds.includes(id)) statementIds.push(id);
    const from = dayOf(textAt(statement, 'FrToDt', 'FrDtTm'));
    const to = dayOf(textAt(statement, 'FrToDt', 'ToDtTm'));
    if (from && (periodFrom === null || from < periodFrom)) periodFrom = from;
    if (to && (periodTo === null || to > periodTo)) periodTo = to;
    for (const entry of all(statement, 'Ntry')) {
      for (const credit of creditsOf(entry)) {
        const base = { entryRef: credit.shownRef, bookedAt: credit.bookedAt };
        if (credit.amount.currency.toUpperCase() !== 'EUR') {
          skipped.push({ ...base, reason: skippedReason.currency(credit.amount.currency) });
          continue;
        }
        const amountCents = amountToCents(credit.amount.value);
        if (amountCents === null) {
          skipped.push({ ...base, reason: skippedReason.amount });
          continue;
        }
        if (!credit.bookedAt) {
          skipped.push({ ...base, reason: skippedReason.date });
          continue;
        }
        const identity = JSON.stringify([credit.bookedAt, amountCents, credit.counterpartyIban, credit.remittance, credit.shownRef]);
        const occurrence = (occurrences.get(identity) ?? 0) + 1;
        occurrences.set(identity, occurrence);
        const entryKey = await entryKeyOf(iban, credit, amountCents, occurrence);
        // A file may hold overlapping statements (a day's interim and final one): a booking the bank
        // gave a reference counts once.
        if (seenKeys.has(entryKey)) continue;
        seenKeys.add(entryKey);
        entries.push({
          entryRef: credit.shownRef,
          entryKey,
          bookedAt: credit.bookedAt,
          amountCents,
          counterparty: credit.counterparty,
          counterpartyIban: credit.counterpartyIban,
          remittance: credit.remittance,
        });
      }
    }
  }
  return { accountIban, entries, skipped, statementIds, periodFrom, periodTo };
}
