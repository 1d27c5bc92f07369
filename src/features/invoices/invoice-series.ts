import { and, eq, sql } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { sequences } from '../../db/schema';
import type { Logger } from '../../core/logger';
import type { FileStore } from '../../platform/files';
import { formatInvoiceNumber, INVOICE_SEQUENCE } from './invoice-number';

/**
 * The invoice series' memory outside the database (docs/decisions/049): every number drawn leaves an empty
 * marker `series/invoice/<year>/<nnnn>` in file storage. A database put back from a backup (or rolled back
 * by D1 Time Travel) forgets the numbers drawn since; the markers do not, so the next draw skips past them
 * instead of handing out a number that a customer already has on paper.
 */
const MARKER_ROOT = 'series/invoice';

/** The top folders of file storage that hold issued numbers and documents: a restore keeps them (docs/decisions/049). */
export const ISSUED_FOLDERS = ['series', 'invoices'] as const;

/**
 * The club's counter (year 0) saying that numbers drawn before the markers existed have been given theirs
 * (the deployment's instance_meta row before there were clubs, docs/decisions/071).
 */
export const LEGACY_MARKERS_DONE = 'invoice_series_markers';

const markerFolder = (year: number) => `${MARKER_ROOT}/${year}/`;

export function seriesMarkerKey(year: number, sequence: number): string {
  return `${markerFolder(year)}${String(sequence).padStart(4, '0')}`;
}

/** 'F2026-0011' → year 2026, sequence 11; null for anything else. */
export function parseInvoiceNumber(text: string): { year: number; sequence: number } | null {
  const match = /^F(\d{4})-(\d{4,})$/.exec(text);
  return match ? { year: Number(match[1]), sequence: Number(match[2]) } : null;
}

/** Leaves the marker of a number just drawn (an invoice's or a credit note's); writing it twice is harmless. */
export async function markNumberDrawn(files: FileStore, invoiceNumber: string): Promise<void> {
  const parsed = parseInvoiceNumber(invoiceNumber);
  if (!parsed) throw new Error(`Not an invoice number: ${invoiceNumber}`);
  await files.put(seriesMarkerKey(parsed.year, parsed.sequence), new Uint8Array(), { size: 0 });
}

/**
 * Files stored before the markers existed are named after their number (`invoices/F2026-0011.pdf`): each
 * gets its marker once. The flag lives in the database on purpose: a backup made after this ran holds every
 * number drawn before it, and one made before it brings the flag back absent, so this runs again.
 */
async function markLegacyNumbers(db: ClubDb, files: FileStore): Promise<void> {
  const marked = new Set<string>();
  for (const key of await files.list('invoices/')) {
    const match = /^invoices\/(F\d{4}-\d{4,})[-.]/.exec(key);
    if (!match || marked.has(match[1]!)) continue;
    marked.add(match[1]!);
    await markNumberDrawn(files, match[1]!);
  }
  await db.insert(sequences).values({ name: LEGACY_MARKERS_DONE, year: 0, value: marked.size }).onConflictDoNothing();
}

/**
 * Run before a number of `year` is drawn. The normal path costs one read and one existence check: the
 * marker of the number the counter would give next is absent. When it is present, the database is older
 * than the series: the counter moves (an upsert that only ever raises it) past the highest marker.
 */
export async function skipNumbersDrawnBefore(deps: { db: ClubDb; files: FileStore; log: Logger }, year: number): Promise<void> {
  const { db, files } = deps;
  const [state] = await db
    .select({
      value: sql<number | null>`${db
        .select({ value: sequences.value })
        .from(sequences)
        .where(and(eq(sequences.name, INVOICE_SEQUENCE), eq(sequences.year, year)))}`,
      legacyDone: sql<number>`EXISTS ${db
        .select({ one: sql`1` })
        .from(sequences)
        .where(and(eq(sequences.name, LEGACY_MARKERS_DONE), eq(sequences.year, 0)))}`,
    })
    .from(sql`(SELECT 1)`);
  const current = state?.value ?? 0;
  if (state?.legacyDone) {
    if (!(await files.exists(seriesMarkerKey(year, current + 1)))) return;
  } else {
    // Once: the legacy numbers need not be consecutive from the counter, so the markers are read at once.
    await markLegacyNumbers(db, files);
  }
  const folder = markerFolder(year);
  let highest = current;
  for (const key of await files.list(folder)) {
    const sequence = Number(key.slice(folder.length));
    if (Number.isInteger(sequence) && sequence > highest) highest = sequence;
  }
  if (highest === current) return;
  await db
    .insert(sequences)
    .values({ name: INVOICE_SEQUENCE, year, value: highest })
    .onConflictDoUpdate({
      target: [sequences.clubId, sequences.name, sequences.year],
      set: { value: sql`max(${sequences.value}, excluded.${sql.identifier(sequences.value.name)})` },
    });
  deps.log.info(
    `Invoice series ${year}: the database knew numbers up to ${formatInvoiceNumber(year, current)}, file storage up to ${formatInvoiceNumber(year, highest)} (a restored database?); the next number follows ${formatInvoiceNumber(year, highest)}.`,
  );
}
