import { DeadlineJob } from './deadline-job';

describe('DeadlineJob', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-01T10:00:00.000Z') }));
  afterEach(() => jest.useRealTimers());

  const clock = { now: () => new Date() };

  it('runs at start, then at each next deadline (at most a minute apart), sooner for a new deadline', () => {
    const run = jest.fn();
    let next: Date | undefined = new Date('2026-11-01T10:00:30.000Z');
    const job = new DeadlineJob({ run, next: () => next, clock, onError: jest.fn() });
    job.start();
    expect(run).toHaveBeenCalledTimes(1);
    next = undefined;
    jest.advanceTimersByTime(29_999);
    expect(run).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    job.wakeBy('2026-11-01T10:00:40.000Z');
    jest.advanceTimersByTime(10_000);
    expect(run).toHaveBeenCalledTimes(3);
    jest.advanceTimersByTime(60_000);
    expect(run).toHaveBeenCalledTimes(4);
    job.stop();
    jest.advanceTimersByTime(600_000);
    expect(run).toHaveBeenCalledTimes(4);
  });

  it('tells a failed run and tries again a second later', () => {
    const onError = jest.fn();
    const run = jest.fn().mockImplementationOnce(() => {
      throw new Error('disk full');
    });
    const job = new DeadlineJob({ run, next: () => undefined, clock, onError });
    job.start();
    expect(onError).toHaveBeenCalledWith(new Error('disk full'));
    jest.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(2);
    job.stop();
  });

  it('a deadline already passed on its clock (a clock moved ahead) runs at once, not at the next wake', () => {
    const run = jest.fn();
    const moved = { offsetMs: 0, now: () => new Date(Date.now() + moved.offsetMs) };
    const job = new DeadlineJob({ run, next: () => undefined, clock: moved, onError: jest.fn() });
    job.start();
    moved.offsetMs = 48 * 3_600_000;
    job.wakeBy(moved.now().toISOString());
    jest.advanceTimersByTime(0);
    expect(run).toHaveBeenCalledTimes(2);
    job.stop();
  });

  it('an async run never overlaps the one before: a wake during it runs once more after it; a failed one is retried', async () => {
    const ends: (() => void)[] = [];
    const fails: ((e: Error) => void)[] = [];
    let running = 0;
    let most = 0;
    const run = jest.fn(
      () =>
        new Promise<void>((resolve, reject) => {
          running += 1;
          most = Math.max(most, running);
          ends.push(() => {
            running -= 1;
            resolve();
          });
          fails.push((e) => {
            running -= 1;
            reject(e);
          });
        }),
    );
    const onError = jest.fn();
    const job = new DeadlineJob({ run, next: () => undefined, clock, onError });
    job.start();
    job.wakeBy(new Date().toISOString());
    jest.advanceTimersByTime(0);
    expect(run).toHaveBeenCalledTimes(1);
    ends[0]!();
    await Promise.resolve();
    await Promise.resolve();
    expect(run).toHaveBeenCalledTimes(2);
    fails[1]!(new Error('receiver down'));
    await Promise.resolve();
    await Promise.resolve();
    expect(onError).toHaveBeenCalledWith(new Error('receiver down'));
    jest.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(3);
    expect(most).toBe(1);
    ends[2]!();
    await Promise.resolve();
    await job.idle();
    job.stop();
  });
});
