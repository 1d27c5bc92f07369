/**
 * Spaces the starts of SMTP sends evenly, so that no more than `perMinute` begin in any minute
 * (MAIL_RATE_PER_MINUTE, docs/decisions/053). Every delivery of a process (or Worker isolate) takes its
 * turn from the same pacer, so a request's own mail and a drain of the queue share one rate.
 */
export interface PaceTimer {
  /** Milliseconds on a clock that only moves forward. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realPaceTimer: PaceTimer = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class SendPacer {
  private nextSlot = Number.NEGATIVE_INFINITY;
  readonly intervalMs: number;

  constructor(
    readonly perMinute: number,
    private readonly timer: PaceTimer = realPaceTimer,
  ) {
    this.intervalMs = 60_000 / perMinute;
  }

  /** Resolves when the caller may start one send; each call reserves the next free slot. */
  async take(): Promise<void> {
    const now = this.timer.now();
    const slot = Math.max(this.nextSlot, now);
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await this.timer.sleep(slot - now);
  }
}
