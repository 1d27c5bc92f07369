import type { AppDeps, ClubDeps } from './context';
import { clubDb, FIRST_CLUB_ID } from './db/club-db';
import { clubFileStore } from './platform/files';
import type { Club } from './platform/club-directory';

/** Where a club's files live in the deployment's storage: the first club's where they always were. */
export function clubStoragePrefix(club: Pick<Club, 'id'>): string {
  return club.id === FIRST_CLUB_ID ? '' : `clubs/${club.id}/`;
}

/** One club's dependencies: its handle on the database, its part of file storage and its origin (docs/decisions/071). */
export function clubDeps(deps: AppDeps, club: Club): ClubDeps {
  const { database, ...shared } = deps;
  return {
    ...shared,
    club,
    db: clubDb(database, club.id),
    files: clubFileStore(deps.files, clubStoragePrefix(club)),
    siteOrigin: deps.clubs.originOf(club),
  };
}

/**
 * Runs a timer's or the cron's work for every active club (docs/decisions/071), the clubs side by side. One
 * club's failure is logged and the others go on.
 */
export async function forEachClub(deps: AppDeps, label: string, work: (club: ClubDeps) => Promise<unknown>): Promise<void> {
  const active = (await deps.clubs.list()).filter((club) => club.status === 'active');
  await Promise.all(
    active.map((club) =>
      work(clubDeps(deps, club)).catch((error: unknown) =>
        deps.log.error(`${label} failed`, { club: club.slug, error: error instanceof Error ? error.message : String(error) }),
      ),
    ),
  );
}
