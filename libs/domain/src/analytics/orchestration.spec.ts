import { orchestrationAlert, orchestrationReport } from './orchestration';

describe('orchestrationAlert', () => {
  it('should raise info above 0.30, warn above 0.50 and critical above 0.70, each bound exclusive', () => {
    expect([0, 0.3, 0.3001, 0.5, 0.5001, 0.7, 0.7001, 1].map(orchestrationAlert)).toEqual([
      'normal',
      'normal',
      'info',
      'info',
      'warn',
      'warn',
      'critical',
      'critical',
    ]);
  });
});

describe('orchestrationReport', () => {
  it('should divide coordination tokens by all tokens and retries by attempts', () => {
    expect(orchestrationReport({ coordinationTokens: 600, totalTokens: 1000, retries: 1, attempts: 3 })).toEqual({
      orchestration_ratio: 0.6,
      alert_level: 'warn',
      retry_rate: 0.3333,
      retry_warning: true,
    });
  });

  it('should answer 0 without tokens or attempts, and warn on retries only above 0.1', () => {
    expect(orchestrationReport({ coordinationTokens: 0, totalTokens: 0, retries: 0, attempts: 0 })).toEqual({
      orchestration_ratio: 0,
      alert_level: 'normal',
      retry_rate: 0,
      retry_warning: false,
    });
    expect(orchestrationReport({ coordinationTokens: 0, totalTokens: 5, retries: 1, attempts: 10 }).retry_warning).toBe(
      false,
    );
  });
});
