import type { Logger } from './core/logger';
import type { Config } from './env';
import type { Db } from './db/client';
import type { Clock } from './platform/clock';
import type { FileStore } from './platform/files';
import type { MailTransport } from './platform/mail';
import type { PasswordHasher } from './platform/password';
import type { Session } from './features/auth/session';
import type { UserProfile } from './features/auth/user-profile';
import type { SettingsCache } from './platform/settings-cache';
import type { BackupStore } from './platform/backup-store';

/** What a runtime entry (node.ts, worker.ts) builds once and hands to createApp. */
export interface AppDeps {
  config: Config;
  db: Db;
  files: FileStore;
  clock: Clock;
  passwords: PasswordHasher;
  settingsCache: SettingsCache;
  mailTransport: MailTransport | null;
  /** Where backups are made and kept: DATA_DIR/backups on Node, R2 on the Worker (docs/decisions/051). */
  backups: BackupStore;
  /** 32-byte hex key that encrypts TOTP secrets. */
  secretKey: string;
  log: Logger;
  /** Serves the built SPA's files; null when there is no build (API-only tests). */
  assets: ((request: Request) => Promise<Response>) | null;
  /** Work to finish before the first request is answered (the Worker's once-per-isolate set-up). */
  ready?: () => Promise<void>;
}

/** Lets a service set or clear the session cookie without knowing the transport. */
export interface SessionCookieJar {
  set(token: string, expiresAt: number): void;
  clear(): void;
}

/** The per-request context every service receives: dependencies plus who is asking. */
export interface RequestCtx extends AppDeps {
  requestId: string;
  /** The client's address, as audit entries and the sessions list show it. */
  ip: string;
  /** The client as per-address rate limits count it: an IPv6 address's /64 (platform/client-address.ts). */
  rateLimitAddress: string;
  /** The User-Agent header (trimmed), kept with a new session. */
  userAgent: string;
  /** The club's origin for absolute links in mail (config.origin, docs/decisions/054); never the request's Host. */
  siteOrigin: string;
  /** True when the site is reached over https (cookies get Secure, HSTS is sent). */
  secure: boolean;
  session: Session | null;
  /** Null when nobody is signed in, or the session still waits for its two-factor code. */
  user: UserProfile | null;
  /** An admin without two-factor while `require_2fa_for_admins` is on (features/auth/permissions.ts). */
  twoFactorSetupRequired: boolean;
  cookies: SessionCookieJar;
  /**
   * Lets work go on after the answer (mail delivery): the Worker's `executionCtx.waitUntil`, so the
   * isolate is not stopped mid-send; on Node the promise simply runs on. The work must catch its own errors.
   */
  background(work: Promise<unknown>): void;
}
