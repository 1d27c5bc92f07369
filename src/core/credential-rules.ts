// The lengths of usernames and passwords, for the server's checks, the setting's bounds and the SPA's forms alike:
// plain values, so the browser bundle can import this file.

/** docs/architecture.md §3: a username is 3 to 32 of [A-Za-z0-9_.-]. */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 32;
export const USERNAME_PATTERN = new RegExp(`^[A-Za-z0-9_.-]{${USERNAME_MIN_LENGTH},${USERNAME_MAX_LENGTH}}$`);

/** Longest password accepted: Argon2 on megabytes of input would be a cheap way to burn our CPU. */
export const MAX_PASSWORD_LENGTH = 256;

/**
 * docs/product.md §9 and docs/decisions/007: no new password is shorter than this, whatever `password_min_length`
 * says; it is also that setting's default and lowest allowed value.
 */
export const PASSWORD_MIN_LENGTH = 6;
