import type { Logger } from './core/logger';
import type { Config } from './env';
import type { ClubDb, PlatformDb } from './db/client';
import type { Club, ClubDirectory } from './platform/club-directory';
import type { ClubSignupInput, ClubVerifyInput, ClubView, CreateClubInput, UpdateClubInput } from './core/club-schemas';
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
  /** The whole database: the platform's view, never handed to a club's service (docs/decisions/071). */
  database: PlatformDb;
  /** The clubs and their hosts, as requests are resolved against them. */
  clubs: ClubDirectory;
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

/**
 * One club's dependencies (docs/decisions/071): the deployment's, with the club, its database handle and its
 * origin, and without the whole database. A request has its club's; timers and the cron make one per club (club-deps.ts).
 */
export interface ClubDeps extends Omit<AppDeps, 'database'> {
  club: Club;
  /** The club's handle: every query through it reaches the club's rows only. */
  db: ClubDb;
  /** The club's origin for absolute links in mail (docs/decisions/054, 071); never the request's Host. */
  siteOrigin: string;
}

/**
 * The platform's operations on clubs (features/clubs/clubs.service.ts, docs/decisions/071): what a request may ask
 * of the whole deployment, each checking who asks, without handing the whole database to anyone.
 */
export interface PlatformOps {
  list(ctx: RequestCtx): Promise<{ clubs: ClubView[] }>;
  create(ctx: RequestCtx, input: CreateClubInput): Promise<{ success: true; club_id: number }>;
  update(ctx: RequestCtx, id: number, input: UpdateClubInput): Promise<{ success: true }>;
  signup(ctx: RequestCtx, input: ClubSignupInput): Promise<{ success: true }>;
  verify(ctx: RequestCtx, input: ClubVerifyInput): Promise<{ success: true; url: string }>;
}

/** Lets a service set or clear the session cookie without knowing the transport. */
export interface SessionCookieJar {
  set(token: string, expiresAt: number): void;
  clear(): void;
}

/** The per-request context every service receives: dependencies plus who is asking. */
export interface RequestCtx extends ClubDeps {
  requestId: string;
  /** The client's address, as audit entries and the sessions list show it. */
  ip: string;
  /** The client as per-address rate limits count it: an IPv6 address's /64 (platform/client-address.ts). */
  rateLimitAddress: string;
  /** The User-Agent header (trimmed), kept with a new session. */
  userAgent: string;
  /** True when the site is reached over https (cookies get Secure, HSTS is sent). */
  secure: boolean;
  session: Session | null;
  /** Null when nobody is signed in, or the session still waits for its two-factor code. */
  user: UserProfile | null;
  /** An admin without two-factor while `require_2fa_for_admins` is on (features/auth/permissions.ts). */
  twoFactorSetupRequired: boolean;
  cookies: SessionCookieJar;
  /** The platform's operations on clubs; each refuses who may not use it. */
  platform: PlatformOps;
  /**
   * Lets work go on after the answer (mail delivery): the Worker's `executionCtx.waitUntil`, so the
   * isolate is not stopped mid-send; on Node the promise simply runs on. The work must catch its own errors.
   */
  background(work: Promise<unknown>): void;
}
