import { describe, expect, it } from 'vitest';
import { type PaceTimer, SendPacer } from './send-pacer';

/** Time that moves only when someone sleeps (to the moment they wake): the pacer gets exactly what it asks for. */
function fakeTimer(): PaceTimer & { wakes: number[]; at: number } {
  const timer = {
    at: 0,
    wakes: [] as number[],
    now: () => timer.at,
    sleep: async (ms: number) => {
      const wake = timer.at + ms;
      timer.wakes.push(wake);
      timer.at = Math.max(timer.at, wake);
    },
  };
  return timer;
}

describe('SendPacer', () => {
  it('lets the first send start at once and spaces the next ones 60 s / rate apart', async () => {
    const timer = fakeTimer();
    const pacer = new SendPacer(300, timer);
    const starts: number[] = [];
    for (let i = 0; i < 4; i++) {
      await pacer.take();
      starts.push(timer.at);
    }
    expect(starts).toEqual([0, 200, 400, 600]);
  });

  it('gives callers waiting at the same moment consecutive slots', async () => {
    const timer = fakeTimer();
    const pacer = new SendPacer(120, timer);
    await Promise.all([pacer.take(), pacer.take(), pacer.take()]);
    expect(timer.wakes).toEqual([500, 1000]);
  });

  it('keeps no credit for a quiet spell: after a pause the next send starts at once, the one after waits again', async () => {
    const timer = fakeTimer();
    const pacer = new SendPacer(60, timer);
    await pacer.take();
    timer.at += 10_000;
    await pacer.take();
    await pacer.take();
    expect(timer.wakes).toEqual([11_000]);
  });
});
