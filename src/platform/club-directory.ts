import { asc, eq } from 'drizzle-orm';
import type { ClubId, PlatformDb } from '../db/club-db';
import { asClubId, FIRST_CLUB_ID } from '../db/club-db';
import { clubHosts, clubs } from '../db/schema';

export type ClubStatus = (typeof clubs.status.enumValues)[number];

/** A club as the directory knows it: who a request belongs to (docs/decisions/071). */
export interface Club {
  id: ClubId;
  slug: string;
  name: string;
  status: ClubStatus;
  /** Its own hosts, lower case without a port, the first one first. */
  hosts: string[];
  createdAt: string;
}

/** What the directory reads of the configuration (env.ts Config). */
interface DirectoryConfig {
  /** The first club's origin: PUBLIC_URL, else the listening address. */
  origin: string;
  clubsDomain: string | undefined;
}

interface Snapshot {
  clubs: Club[];
  byHost: Map<string, Club>;
  bySlug: Map<string, Club>;
  /** The host of the configured origin, which the first club also answers on. */
  originHost: string;
  loadedAt: number;
}

/** A request's host as the directory compares it: lower case, without a port or a trailing dot. */
export function normalHost(host: string): string {
  const bare = host.trim().toLowerCase();
  const withoutPort = bare.startsWith('[') ? bare.slice(0, bare.indexOf(']') + 1) : bare.replace(/:\d*$/, '');
  return withoutPort.replace(/\.$/, '');
}

/**
 * The clubs and their hosts, read once per `ttlMs` by each process or isolate (every request asks it). A change
 * through this process is seen at once; one made by another isolate when its copy is older than `ttlMs`.
 */
export class ClubDirectory {
  private snapshot: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;
  private generation = 0;

  constructor(
    private readonly db: PlatformDb,
    private readonly config: DirectoryConfig,
    private readonly ttlMs: number,
  ) {}

  private async current(): Promise<Snapshot> {
    // The wall clock, not the app's: how fresh a cached copy is has nothing to do with the business date.
    const now = Date.now();
    if (this.snapshot && now - this.snapshot.loadedAt < this.ttlMs) return this.snapshot;
    if (this.loading) return this.loading;
    const generation = this.generation;
    const loading = this.load(now)
      .then((snapshot) => {
        if (generation === this.generation) this.snapshot = snapshot;
        return snapshot;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = null;
      });
    this.loading = loading;
    return loading;
  }

  private async load(now: number): Promise<Snapshot> {
    const rows = await this.db
      .select({ club: clubs, host: clubHosts.host })
      .from(clubs)
      .leftJoin(clubHosts, eq(clubHosts.clubId, clubs.id))
      .orderBy(asc(clubs.id), asc(clubHosts.position), asc(clubHosts.host));
    const byId = new Map<number, Club>();
    for (const { club, host } of rows) {
      let entry = byId.get(club.id);
      if (!entry) {
        entry = { id: asClubId(club.id), slug: club.slug, name: club.name, status: club.status, hosts: [], createdAt: club.createdAt };
        byId.set(club.id, entry);
      }
      if (host) entry.hosts.push(host);
    }
    const list = [...byId.values()];
    return {
      clubs: list,
      byHost: new Map(list.flatMap((club) => club.hosts.map((host) => [host, club] as const))),
      bySlug: new Map(list.map((club) => [club.slug, club] as const)),
      // Parsed once a load instead of on every request.
      originHost: new URL(this.config.origin).hostname,
      loadedAt: now,
    };
  }

  /** After a change of clubs or hosts through this process. */
  invalidate(): void {
    this.generation++;
    this.loading = null;
    this.snapshot = null;
  }

  async list(): Promise<Club[]> {
    return (await this.current()).clubs;
  }

  async get(id: ClubId): Promise<Club | null> {
    return (await this.current()).clubs.find((club) => club.id === id) ?? null;
  }

  /**
   * The club a request's host names (docs/decisions/071): one of a club's hosts (the first club also answers the
   * configured origin's host); else `<slug>.<CLUBS_DOMAIN>`; else, while the deployment has one club, that club.
   */
  async resolve(requestHost: string): Promise<Club | null> {
    const snapshot = await this.current();
    const host = normalHost(requestHost);
    const own = snapshot.byHost.get(host);
    if (own) return own;
    const first = snapshot.clubs.find((club) => club.id === FIRST_CLUB_ID);
    if (first && host === snapshot.originHost) return first;
    const domain = this.config.clubsDomain;
    if (domain && host.endsWith(`.${domain}`)) {
      const bySlug = snapshot.bySlug.get(host.slice(0, -domain.length - 1));
      if (bySlug) return bySlug;
    }
    return snapshot.clubs.length === 1 ? (snapshot.clubs[0] ?? null) : null;
  }

  /**
   * The club's origin, where every link the server writes for it points: the configured origin for the first club;
   * for another, that origin's scheme and port with the club's first host (else `<slug>.<CLUBS_DOMAIN>`).
   */
  originOf(club: Club): string {
    const base = new URL(this.config.origin);
    if (club.id === FIRST_CLUB_ID) return base.origin;
    const host = club.hosts[0] ?? (this.config.clubsDomain ? `${club.slug}.${this.config.clubsDomain}` : null);
    if (!host) return base.origin;
    base.hostname = host;
    return base.origin;
  }

  /** Every host an `Origin` header of the club's pages may name. */
  hostsOf(club: Club): string[] {
    return [...club.hosts, new URL(this.originOf(club)).hostname];
  }
}
