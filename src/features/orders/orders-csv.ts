import { formatDateShort } from '../invoices/nl-format';
import type { RequestCtx } from '../../context';
import { writeAudit } from '../audit/audit';
import { listOrders, type OrderFilters, type OrderView } from './orders.service';

/**
 * Orders as CSV for packing and delivery lists (issue 6 item 5), made for Dutch Excel: UTF-8 with a
 * byte-order mark (else Excel reads it as Windows-1252 and mangles accents), ';' between fields (Dutch
 * Excel's list separator, as ',' is the decimal comma), CRLF line ends, and RFC 4180 quoting.
 */

export const CSV_COLUMNS = [
  'Bestelnummer',
  'Tabler',
  'Naam',
  'Email',
  'Telefoon',
  'Adres',
  'Postcode',
  'Plaats',
  'Aantal',
  'Opmerkingen',
  'Betaald',
  'Factuur verstuurd',
  'Factuurnummer',
  'Besteld op',
] as const;

const BOM = '\uFEFF';
const SEPARATOR = ';';
const LINE_END = '\r\n';

/**
 * One field: quoted (with quotes doubled) when it holds a quote, the separator, a comma or a line
 * break. A text a spreadsheet would run as a formula (starting with = + - @, tab or CR; the visitor
 * typed it on the public form) gets a leading apostrophe, except a plain phone number like
 * '+31 6 1234 5678'.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^\+[\d ()-]+$/.test(text)) text = `'${text}`;
  return /[";,\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const yesNo = (flag: boolean) => (flag ? 'Ja' : 'Nee');

export function orderCsvRow(order: OrderView): (string | number)[] {
  return [
    order.reference,
    // spec §2: an order whose tabler is gone shows 'Onbekend'.
    order.tabler_name ?? 'Onbekend',
    order.name,
    order.email,
    order.phone,
    order.address,
    order.postal_code,
    order.city,
    order.amount,
    order.notes ?? '',
    yesNo(order.paid),
    yesNo(order.invoice_sent),
    order.invoice_number ?? '',
    formatDateShort(new Date(order.created_at)),
  ];
}

export function ordersToCsv(orders: readonly OrderView[]): string {
  const lines = [CSV_COLUMNS.map(csvField).join(SEPARATOR)];
  for (const order of orders) lines.push(orderCsvRow(order).map(csvField).join(SEPARATOR));
  return BOM + lines.join(LINE_END) + LINE_END;
}

/** 'bestellingen-2026-11-22.csv' (the date in Dutch time). */
export function csvFileName(now: Date): string {
  const [day, month, year] = formatDateShort(now).split('-');
  return `bestellingen-${year}-${month!.padStart(2, '0')}-${day!.padStart(2, '0')}.csv`;
}

/** GET /orders/export.csv: the orders of GET /orders with the same filters, as CSV; audited (issue 12). */
export async function exportOrdersCsv(ctx: RequestCtx, filters: OrderFilters): Promise<string> {
  const list = await listOrders(ctx, filters);
  await writeAudit(ctx, { action: 'orders.exported', details: { filters, rows: list.length } });
  return ordersToCsv(list);
}
