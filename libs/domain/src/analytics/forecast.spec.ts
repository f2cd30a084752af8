import { forecastLookbackStart, forecastSpend } from './forecast';

const at = (iso: string): Date => new Date(iso);
const NOW = at('2026-11-25T13:45:00Z');
const day = (iso: string, cost: number, records = 1) => ({ day: at(`${iso}T00:00:00Z`), cost, records });

describe('forecastSpend', () => {
  it('should average over the inclusive span of the days with records and project from tomorrow', () => {
    // Records on the 20th, 22nd and 24th: span 5 days, total 10 -> avg 2, confidence 3/5.
    const forecast = forecastSpend({
      horizonDays: 3,
      now: NOW,
      daily: [day('2026-11-20', 4), day('2026-11-21', 0, 0), day('2026-11-22', 5), day('2026-11-24', 1)],
      monthlyBudget: 100,
      remaining: 7,
    });
    expect(forecast).toEqual({
      horizonDays: 3,
      projectedTotal: 6,
      dailyProjections: [
        { day: '2026-11-26', projectedSpend: 2 },
        { day: '2026-11-27', projectedSpend: 4 },
        { day: '2026-11-28', projectedSpend: 6 },
      ],
      daysUntilExhausted: 4,
      confidence: 0.6,
      avgDailySpend: 2,
    });
  });

  it('should count one day of records as a span of 1', () => {
    const forecast = forecastSpend({
      horizonDays: 1,
      now: at('2026-12-31T23:59:59Z'),
      daily: [day('2026-12-31', 0.3)],
      monthlyBudget: 1,
      remaining: 0.7,
    });
    expect(forecast.avgDailySpend).toBe(0.3);
    expect(forecast.confidence).toBe(1);
    expect(forecast.dailyProjections).toEqual([{ day: '2027-01-01', projectedSpend: 0.3 }]);
    expect(forecast.daysUntilExhausted).toBe(3);
  });

  it('should answer zeros and no exhaustion without records', () => {
    const forecast = forecastSpend({ horizonDays: 2, now: NOW, daily: [], monthlyBudget: 100, remaining: 100 });
    expect(forecast).toEqual({
      horizonDays: 2,
      projectedTotal: 0,
      dailyProjections: [
        { day: '2026-11-26', projectedSpend: 0 },
        { day: '2026-11-27', projectedSpend: 0 },
      ],
      daysUntilExhausted: null,
      confidence: 0,
      avgDailySpend: 0,
    });
  });

  it('should give no exhaustion estimate without a monthly budget, and 0 days once the budget is spent', () => {
    const daily = [day('2026-11-25', 5)];
    expect(forecastSpend({ horizonDays: 1, now: NOW, daily, monthlyBudget: 0, remaining: 0 }).daysUntilExhausted).toBe(
      null,
    );
    expect(forecastSpend({ horizonDays: 1, now: NOW, daily, monthlyBudget: 5, remaining: 0 }).daysUntilExhausted).toBe(
      0,
    );
  });
});

describe('forecastLookbackStart', () => {
  it('should reach back horizon_days calendar days including today', () => {
    expect(forecastLookbackStart(NOW, 14)).toEqual(at('2026-11-12T00:00:00Z'));
    expect(forecastLookbackStart(NOW, 1)).toEqual(at('2026-11-25T00:00:00Z'));
  });
});
