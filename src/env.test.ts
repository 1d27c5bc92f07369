import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, envSchema, parseConfig } from './env';

function failureOf(source: Record<string, unknown>): Error {
  try {
    parseConfig(source);
  } catch (error) {
    return error as Error;
  }
  throw new Error('Expected parseConfig to fail');
}

describe('parseConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    expect(parseConfig({})).toEqual({
      databaseUrl: undefined,
      databaseAuthToken: undefined,
      tursoUrl: undefined,
      tursoAuthToken: undefined,
      dataDir: 'data',
      secretKey: undefined,
      smtpUrl: undefined,
      mailFrom: 'Kerstactie <noreply@localhost>',
      publicUrl: undefined,
      origin: 'http://127.0.0.1:8787',
      apiBasePath: '',
      mollieApiUrl: 'https://api.mollie.com/v2',
      port: 8787,
      host: '127.0.0.1',
      trustedProxies: [],
      adminUsername: 'admin',
      adminPassword: undefined,
      maxUploadMb: 100,
      backupKeep: 14,
      mailRatePerMinute: 300,
      mailConnections: 4,
      mailPerInvocation: 250,
    });
  });

  it('picks a sender a mail provider accepts when MAIL_FROM is not set (decision 058)', () => {
    const from = (env: Record<string, string>) => parseConfig(env).mailFrom;
    // The SMTP login, when it is an address: most providers send only as the account that logged in.
    expect(from({ SMTP_URL: 'smtps://kerst%40tafelronde.nl:geheim@smtp.example.nl', PUBLIC_URL: 'https://kerst.example.nl' })).toBe(
      'Kerstactie <kerst@tafelronde.nl>',
    );
    // Else noreply@ the public address's domain, without www.
    expect(from({ SMTP_URL: 'smtp://apikey:geheim@smtp.example.nl', PUBLIC_URL: 'https://www.kerstactie-harlingen.nl/' })).toBe(
      'Kerstactie <noreply@kerstactie-harlingen.nl>',
    );
    expect(from({ PUBLIC_URL: 'https://kerst.tafelronde.nl:8443' })).toBe('Kerstactie <noreply@kerst.tafelronde.nl>');
    // No domain to name: an IP address, localhost, or no PUBLIC_URL at all.
    expect(from({ PUBLIC_URL: 'http://192.168.1.20:8787' })).toBe('Kerstactie <noreply@localhost>');
    expect(from({ PUBLIC_URL: 'http://[::1]:8787' })).toBe('Kerstactie <noreply@localhost>');
    expect(from({ PUBLIC_URL: 'http://localhost:8787', SMTP_URL: 'smtp://%zz:x@127.0.0.1:25' })).toBe('Kerstactie <noreply@localhost>');
    // MAIL_FROM set wins.
    expect(from({ MAIL_FROM: 'Tafelronde <info@tafelronde.nl>', SMTP_URL: 'smtp://kerst%40tafelronde.nl:x@smtp.example.nl' })).toBe(
      'Tafelronde <info@tafelronde.nl>',
    );
  });

  it('treats blank variables as unset and ignores variables it does not know', () => {
    expect(parseConfig({ PORT: '  ', HOST: '', SMTP_URL: ' ', PATH: '/usr/bin', HOME: '/root' })).toEqual(parseConfig({}));
  });

  it('reads good values, trimming them and normalising the secret key and public URL', () => {
    const key = 'AB'.repeat(32);
    const config = parseConfig({
      DATABASE_URL: ' file:/tmp/k.db ',
      PORT: '3000',
      HOST: '0.0.0.0',
      SECRET_KEY: key,
      SMTP_URL: 'smtps://user:pass@mail.example.nl:465',
      MAIL_FROM: 'Kerstactie <kerst@example.nl>',
      PUBLIC_URL: 'https://kerst.example.nl/',
      API_BASE_PATH: '/backend',
      ADMIN_USERNAME: 'beheer',
      ADMIN_PASSWORD: 'lang-genoeg',
      DATA_DIR: '/var/lib/kerst',
    });
    expect(config).toMatchObject({
      databaseUrl: 'file:/tmp/k.db',
      port: 3000,
      host: '0.0.0.0',
      secretKey: 'ab'.repeat(32),
      smtpUrl: 'smtps://user:pass@mail.example.nl:465',
      mailFrom: 'Kerstactie <kerst@example.nl>',
      publicUrl: 'https://kerst.example.nl',
      apiBasePath: '/backend',
      adminUsername: 'beheer',
      adminPassword: 'lang-genoeg',
      dataDir: '/var/lib/kerst',
    });
  });

  it('accepts a port given as a number (Worker vars may be typed)', () => {
    expect(parseConfig({ PORT: 9000 }).port).toBe(9000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['SECRET_KEY', 'abc123'],
    ['SECRET_KEY', 'a'.repeat(63)],
    ['SECRET_KEY', 'g'.repeat(64)],
    ['SMTP_URL', 'http://mail.example.nl'],
    ['SMTP_URL', 'not a url'],
    ['DATABASE_URL', 'postgres://db.example.nl/kerst'],
    ['TURSO_DATABASE_URL', 'mysql://db.example.nl'],
    ['PUBLIC_URL', 'ftp://kerst.example.nl'],
    ['PUBLIC_URL', 'kerst.example.nl'],
    ['API_BASE_PATH', 'backend'],
    ['API_BASE_PATH', '/backend/'],
    ['ADMIN_USERNAME', 'ab'],
    ['ADMIN_USERNAME', 'has space'],
    ['ADMIN_PASSWORD', 'short'],
    ['MAIL_FROM', 'not-an-address'],
    ['MAX_UPLOAD_MB', '0'],
    ['MAX_UPLOAD_MB', '100MB'],
    ['MAX_UPLOAD_MB', '2.5'],
    ['MAX_UPLOAD_MB', '10001'],
    ['BACKUP_KEEP', '0'],
    ['BACKUP_KEEP', '1001'],
    ['BACKUP_KEEP', 'seven'],
  ])('fails with one line naming %s when it is %j', (name, value) => {
    const error = failureOf({ [name]: value });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message.startsWith(`Invalid configuration: ${name} `)).toBe(true);
    expect(error.message).not.toContain('\n');
  });

  it('names the variable and what it must be for a bad port', () => {
    expect(failureOf({ PORT: 'abc' }).message).toMatch(/^Invalid configuration: PORT must be a port number \(/);
  });

  it('accepts PORT=0, which lets the system pick a free port', () => {
    expect(parseConfig({ PORT: '0' }).port).toBe(0);
  });

  it('names SMTP_URL and the accepted schemes when it is an http URL', () => {
    expect(failureOf({ SMTP_URL: 'http://mail.example.nl' }).message).toBe('Invalid configuration: SMTP_URL must be a URL (smtp: smtps:)');
  });

  it('reads MAX_UPLOAD_MB as a number of megabytes, typed or as text', () => {
    expect(parseConfig({ MAX_UPLOAD_MB: '200' }).maxUploadMb).toBe(200);
    expect(parseConfig({ MAX_UPLOAD_MB: 500 }).maxUploadMb).toBe(500);
  });

  it('reads BACKUP_KEEP, and names its range for a bad value', () => {
    expect(parseConfig({ BACKUP_KEEP: '30' }).backupKeep).toBe(30);
    expect(failureOf({ BACKUP_KEEP: '0' }).message).toBe('Invalid configuration: BACKUP_KEEP must be a whole number of backups from 1 to 1000');
  });

  it('names MAX_UPLOAD_MB, its range and the Cloudflare plans for a bad value', () => {
    expect(failureOf({ MAX_UPLOAD_MB: '100MB' }).message).toBe(
      'Invalid configuration: MAX_UPLOAD_MB must be a whole number of megabytes from 1 to 10000 (Cloudflare allows 100 on Free and Pro, 200 on Business, 500 on Enterprise)',
    );
  });

  it('explains how to make a SECRET_KEY of the right length', () => {
    expect(failureOf({ SECRET_KEY: 'abcd' }).message).toContain('64 hexadecimal characters');
  });

  it('refuses a bad TRUSTED_PROXIES at start with one line naming it', () => {
    expect(() => parseConfig({ TRUSTED_PROXIES: '127.0.0.1, proxy.local' })).toThrow(
      'Invalid configuration: TRUSTED_PROXIES must be IP addresses or CIDR ranges separated by commas (e.g. 127.0.0.1, 10.0.0.0/8, ::1)',
    );
    expect(parseConfig({ TRUSTED_PROXIES: '127.0.0.1 ::1' }).trustedProxies).toHaveLength(2);
    expect(parseConfig({}).trustedProxies).toEqual([]);
  });
});

describe('the example configuration files', () => {
  const namesIn = (file: string) => [...readFileSync(file, 'utf8').matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]).sort();

  it('lists every variable the server reads in .env.example, and nothing else', () => {
    expect(namesIn('.env.example')).toEqual(Object.keys(envSchema.shape).sort());
  });
});
