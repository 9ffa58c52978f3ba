import { DeadlineJob } from './deadline-job';

describe('DeadlineJob', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-01T10:00:00.000Z') }));
  afterEach(() => jest.useRealTimers());

  const clock = { now: () => new Date() };

  it('runs at start, then at each next deadline (at most a minute apart), sooner for a new hold', () => {
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
});
