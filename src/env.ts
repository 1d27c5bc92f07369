import * as z from 'zod';
import { parseAddressRange, type AddressRange } from './platform/client-address';

/**
 * The only reader of configuration (docs/architecture.md §2). Node passes process.env, the Worker its bindings'
 * string vars and secrets. A bad value fails at start with one line naming the variable.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const urlString = (protocols: string[]) =>
  optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL (${protocols.join(' ')})` },
  );

const wholeNumber = (min: number, max: number) =>
  optionalString.refine((v) => v === undefined || (/^\d{1,6}$/.test(v) && Number(v) >= min && Number(v) <= max), {
    message: `must be a whole number from ${min} to ${max}`,
  });

export const envSchema = z.object({
  DATABASE_URL: optionalString.refine((v) => v === undefined || /^(file:|libsql:|https?:|wss?:|:memory:)/.test(v), {
    message: 'must be a libSQL URL (file:, libsql:, http(s):, ws(s):)',
  }),
  DATABASE_AUTH_TOKEN: optionalString,
  TURSO_DATABASE_URL: urlString(['libsql:', 'https:', 'http:']),
  TURSO_AUTH_TOKEN: optionalString,
  DATA_DIR: optionalString,
  SECRET_KEY: optionalString.refine((v) => v === undefined || /^[0-9a-fA-F]{64}$/.test(v), {
    message: 'must be 64 hexadecimal characters (32 bytes); generate one with `openssl rand -hex 32`',
  }),
  SMTP_URL: urlString(['smtp:', 'smtps:']),
  MAIL_FROM: optionalString.refine((v) => v === undefined || /^[^\s<>@]+@[^\s<>@]+$|<[^\s<>@]+@[^\s<>@]+>$/.test(v), {
    message: 'must be an e-mail address, optionally as "Name <address>"',
  }),
  PUBLIC_URL: urlString(['http:', 'https:']),
  // docs/decisions/071: a club without a host of its own answers on <slug>.<CLUBS_DOMAIN>.
  CLUBS_DOMAIN: optionalString.refine((v) => v === undefined || /^(?=.{1,200}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(v), {
    message: 'must be a domain name (e.g. kerstactie.nl)',
  }),
  // docs/decisions/066: the base of every Mollie call; tests point it at a stand-in on loopback.
  MOLLIE_API_URL: urlString(['http:', 'https:']),
  API_BASE_PATH: optionalString.refine((v) => v === undefined || /^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/.test(v), {
    message: 'must start with / and not end with / (e.g. /backend)',
  }),
  PORT: optionalString.refine((v) => v === undefined || (/^\d+$/.test(v) && Number(v) < 65536), {
    message: 'must be a port number (0-65535; 0 picks a free port)',
  }),
  HOST: optionalString,
  // Node behind a reverse proxy: the proxies whose X-Forwarded-For is believed (addresses or CIDRs).
  TRUSTED_PROXIES: optionalString.refine((v) => v === undefined || v.split(/[\s,]+/).every((entry) => parseAddressRange(entry) !== null), {
    message: 'must be IP addresses or CIDR ranges separated by commas (e.g. 127.0.0.1, 10.0.0.0/8, ::1)',
  }),
  ADMIN_USERNAME: optionalString.refine((v) => v === undefined || /^[A-Za-z0-9_.-]{3,32}$/.test(v), {
    message: 'must be 3-32 characters of letters, digits, _ . -',
  }),
  ADMIN_PASSWORD: optionalString.refine((v) => v === undefined || v.length >= 8, {
    message: 'must be at least 8 characters',
  }),
  MAX_UPLOAD_MB: optionalString.refine((v) => v === undefined || (/^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 10_000), {
    message: 'must be a whole number of megabytes from 1 to 10000 (Cloudflare allows 100 on Free and Pro, 200 on Business, 500 on Enterprise)',
  }),
  // How many backups are kept, on Node and on the Worker (docs/decisions/051).
  BACKUP_KEEP: optionalString.refine((v) => v === undefined || (/^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= 1000), {
    message: 'must be a whole number of backups from 1 to 1000',
  }),
  // Outgoing mail's pace (docs/decisions/053): messages begun per minute, SMTP connections at once, and
  // on the Worker the most one request or cron run delivers.
  MAIL_RATE_PER_MINUTE: wholeNumber(1, 100_000),
  MAIL_CONNECTIONS: wholeNumber(1, 20),
  MAIL_PER_INVOCATION: wholeNumber(1, 10_000),
});

export interface Config {
  databaseUrl: string | undefined;
  databaseAuthToken: string | undefined;
  tursoUrl: string | undefined;
  tursoAuthToken: string | undefined;
  dataDir: string;
  secretKey: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** PUBLIC_URL as configured (Secure cookies and HSTS follow it); undefined when it is not set. */
  publicUrl: string | undefined;
  /**
   * The club's origin, the only source of absolute links the server writes (docs/decisions/054): PUBLIC_URL's,
   * else the listening address `http://HOST:PORT` (node.ts names the port PORT=0 picked once it is bound).
   */
  origin: string;
  apiBasePath: string;
  /** docs/decisions/071: clubs without a host of their own answer on `<slug>.<clubsDomain>` (lower case). */
  clubsDomain: string | undefined;
  /** The base of Mollie's Payments API v2 (MOLLIE_API_URL, default https://api.mollie.com/v2). */
  mollieApiUrl: string;
  port: number;
  host: string;
  trustedProxies: AddressRange[];
  adminUsername: string;
  adminPassword: string | undefined;
  /** Largest APK upload in MB (10^6 bytes); Cloudflare's edge refuses larger request bodies by plan. */
  maxUploadMb: number;
  /** Backups kept, the newest (BACKUP_KEEP, default 14). */
  backupKeep: number;
  /** Messages begun per minute, over all connections (MAIL_RATE_PER_MINUTE, default 300). */
  mailRatePerMinute: number;
  /** SMTP connections sending at once (MAIL_CONNECTIONS, default 4). */
  mailConnections: number;
  /** Worker: the most messages one request or cron run delivers (MAIL_PER_INVOCATION, default 250). */
  mailPerInvocation: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `http://HOST:PORT` as a URL origin (an IPv6 host in brackets): the club's origin when PUBLIC_URL is not set. */
export function listeningOrigin(host: string, port: number): string {
  return new URL(`http://${host.includes(':') ? `[${host}]` : host}:${port}`).origin;
}

const SENDER_NAME = 'Kerstactie';
const PLAIN_ADDRESS = /^[^\s<>@,;:"()[\]\\]+@[^\s<>@,;:"()[\]\\]+\.[^\s<>@,;:"()[\]\\]+$/;

/**
 * The sender when MAIL_FROM is not set (docs/decisions/058), the address a mail provider is most likely to
 * accept: the SMTP login when it is an e-mail address (most providers send only as the account that
 * logged in), else noreply@ the domain of PUBLIC_URL (a leading www. dropped), else noreply@localhost
 * (a test set-up without a public address).
 */
export function defaultMailFrom(smtpUrl: string | undefined, publicUrl: string | undefined): string {
  let login = '';
  try {
    login = smtpUrl ? decodeURIComponent(new URL(smtpUrl).username) : '';
  } catch {
    // A user name that is not valid percent-encoding is no address either.
  }
  if (PLAIN_ADDRESS.test(login)) return `${SENDER_NAME} <${login}>`;
  const host = publicUrl ? new URL(publicUrl).hostname : '';
  // A domain name: not an IP address (v4 digits, or a bracketed v6) and not a single label like localhost.
  const domain = host.includes('.') && !/^[\d.]+$|^\[/.test(host) ? host.replace(/^www\./, '') : 'localhost';
  return `${SENDER_NAME} <noreply@${domain}>`;
}

export function parseConfig(source: Record<string, unknown>): Config {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = source[key];
    if (value !== undefined) picked[key] = typeof value === 'string' ? value : String(value);
  }
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const e = parsed.data;
  const port = e.PORT ? Number(e.PORT) : 8787;
  const host = e.HOST ?? '127.0.0.1';
  let origin: string;
  try {
    origin = e.PUBLIC_URL ? new URL(e.PUBLIC_URL).origin : listeningOrigin(host, port);
  } catch {
    throw new ConfigError('Invalid configuration: HOST must be a host name or an IP address');
  }
  return {
    databaseUrl: e.DATABASE_URL,
    databaseAuthToken: e.DATABASE_AUTH_TOKEN,
    tursoUrl: e.TURSO_DATABASE_URL,
    tursoAuthToken: e.TURSO_AUTH_TOKEN,
    dataDir: e.DATA_DIR ?? 'data',
    secretKey: e.SECRET_KEY?.toLowerCase(),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? defaultMailFrom(e.SMTP_URL, e.PUBLIC_URL),
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    origin,
    apiBasePath: e.API_BASE_PATH ?? '',
    clubsDomain: e.CLUBS_DOMAIN?.toLowerCase(),
    mollieApiUrl: (e.MOLLIE_API_URL ?? 'https://api.mollie.com/v2').replace(/\/+$/, ''),
    port,
    host,
    trustedProxies: e.TRUSTED_PROXIES ? e.TRUSTED_PROXIES.split(/[\s,]+/).map((entry) => parseAddressRange(entry)!) : [],
    adminUsername: e.ADMIN_USERNAME ?? 'admin',
    adminPassword: e.ADMIN_PASSWORD,
    maxUploadMb: e.MAX_UPLOAD_MB ? Number(e.MAX_UPLOAD_MB) : 100,
    backupKeep: e.BACKUP_KEEP ? Number(e.BACKUP_KEEP) : 14,
    mailRatePerMinute: e.MAIL_RATE_PER_MINUTE ? Number(e.MAIL_RATE_PER_MINUTE) : 300,
    mailConnections: e.MAIL_CONNECTIONS ? Number(e.MAIL_CONNECTIONS) : 4,
    mailPerInvocation: e.MAIL_PER_INVOCATION ? Number(e.MAIL_PER_INVOCATION) : 250,
  };
}
