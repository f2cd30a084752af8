import { AreaChart, BarChart } from '@mantine/charts';
import { Box } from '@mantine/core';

import type { Schemas } from '@app/client';

import { formatDate, formatMoney } from '../../app/format';

/** Chart dates: "Nov 26" in the person's locale. */
function shortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime())
    ? day
    : new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(date);
}

/**
 * Cumulative projected spend per day of the horizon, with the budget left this period as a line:
 * where the curve crosses it, the budget runs out. The numbers are in the text beside the chart.
 */
export function ForecastChart({
  points,
  currency,
  remaining,
  summary,
}: {
  points: Schemas['ForecastPoint'][];
  currency: string | undefined;
  remaining: number | null;
  summary: string;
}) {
  const data = points
    .filter((p) => typeof p.projected_spend_usd === 'number')
    .map((p) => ({ day: shortDay(p.day), Projected: p.projected_spend_usd }));
  const highest = Math.max(0, ...data.map((d) => d.Projected));
  // The budget left is drawn when it is near enough to the curve to read both; else the text says it.
  const showRemaining = remaining !== null && remaining > 0 && highest > 0 && remaining <= highest * 1.5;
  return (
    <Box role="img" aria-label={summary}>
      <AreaChart
        h={240}
        data={data}
        dataKey="day"
        series={[{ name: 'Projected', label: 'Projected spend (cumulative)', color: 'indigo.7' }]}
        curveType="linear"
        withDots={false}
        valueFormatter={(value) => formatMoney(value, currency)}
        referenceLines={
          showRemaining
            ? [{ y: remaining, label: `Budget left: ${formatMoney(remaining, currency)}`, color: 'red.8' }]
            : []
        }
        yAxisProps={{ width: 80, domain: showRemaining ? [0, Math.ceil(remaining * 1.1 * 100) / 100] : [0, 'auto'] }}
        withLegend
      />
    </Box>
  );
}

/** Spend per UTC day from the cost records' daily summary (at most the last 60 days). */
export function DailySpendChart({ days, currency }: { days: Schemas['DailySummary'][]; currency: string | undefined }) {
  const data = [...days]
    .sort((a, b) => a.date.localeCompare(b.date))
    .slice(-60)
    .map((d) => ({ day: shortDay(d.date), Spend: d.total_cost_usd ?? 0 }));
  const first = days.length > 0 ? formatDate(days[0]?.date) : '';
  return (
    <Box
      role="img"
      aria-label={`Spend per day${first ? ` since ${first}` : ''}; the table below lists each call`}
      mb="md"
    >
      <BarChart
        h={180}
        data={data}
        dataKey="day"
        series={[{ name: 'Spend', label: 'Spend per day', color: 'indigo.7' }]}
        maxBarWidth={36}
        valueFormatter={(value) => formatMoney(value, currency)}
        yAxisProps={{ width: 80 }}
      />
    </Box>
  );
}

/** Tasks completed and failed in each performance window of an agent. */
export function PerformanceChart({ windows }: { windows: Schemas['WindowMetrics'][] }) {
  const data = windows.map((w) => ({
    window: `Last ${w.window_size.replace('d', ' days')}`,
    Completed: w.tasks_completed ?? 0,
    Failed: w.tasks_failed ?? 0,
  }));
  const text = data.map((d) => `${d.window}: ${d.Completed} completed, ${d.Failed} failed`).join('; ');
  return (
    <Box role="img" aria-label={`Tasks per window. ${text}`}>
      <BarChart
        h={200}
        data={data}
        dataKey="window"
        series={[
          { name: 'Completed', color: 'teal.8' },
          { name: 'Failed', color: 'red.8' },
        ]}
        withLegend
        maxBarWidth={48}
        yAxisProps={{ allowDecimals: false }}
      />
    </Box>
  );
}
