import { CircuitBreaker, NdcCircuitOpenError } from './circuit-breaker';

describe('CircuitBreaker', () => {
  let now = 0;
  const breaker = () => new CircuitBreaker('ZZ', { failureThreshold: 3, openMs: 30_000, now: () => now });

  beforeEach(() => {
    now = 1_000_000;
  });

  it('opens after the threshold of transient failures in a row, and refuses calls without sending them', () => {
    const circuit = breaker();
    circuit.failure();
    circuit.failure();
    expect(circuit.state).toBe('closed');
    circuit.before();
    circuit.failure();
    expect(circuit.state).toBe('open');
    expect(() => circuit.before()).toThrow(NdcCircuitOpenError);
    try {
      circuit.before();
    } catch (error) {
      expect(error).toMatchObject({ kind: 'CIRCUIT_OPEN', transient: true, requestSent: false });
    }
    expect(circuit.snapshot()).toEqual({
      state: 'open',
      consecutiveFailures: 3,
      openedAt: new Date(now).toISOString(),
      opens: 1,
    });
  });

  it('an answer in between starts the count again', () => {
    const circuit = breaker();
    circuit.failure();
    circuit.failure();
    circuit.success();
    circuit.failure();
    circuit.failure();
    expect(circuit.state).toBe('closed');
  });

  it('lets one trial call through after openMs: an answer closes it, a failure opens it again', () => {
    const circuit = breaker();
    for (let i = 0; i < 3; i += 1) circuit.failure();
    now += 30_000;
    expect(circuit.state).toBe('half-open');
    circuit.before();
    // A second caller while the trial runs is refused.
    expect(() => circuit.before()).toThrow(NdcCircuitOpenError);
    circuit.failure();
    expect(circuit.state).toBe('open');
    expect(circuit.snapshot().opens).toBe(2);
    now += 30_000;
    circuit.before();
    circuit.success();
    expect(circuit.snapshot()).toEqual({ state: 'closed', consecutiveFailures: 0, opens: 2 });
    circuit.before();
  });
});
