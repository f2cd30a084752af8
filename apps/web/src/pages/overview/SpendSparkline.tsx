import { Box } from '@mantine/core';

import { formatDate, formatMoney } from '../../app/format';

interface Point {
  timestamp: string;
  value: number;
}

const WIDTH = 100;
const HEIGHT = 40;

/**
 * The week's daily spend as a small area chart: an image whose name lists every day's figure, so
 * the numbers reach those who cannot see the line.
 */
export function SpendSparkline({ points, currency }: { points: Point[]; currency: string }) {
  const values = points.map((point) => (Number.isFinite(point.value) ? point.value : 0));
  const max = Math.max(...values, 0);
  const step = values.length > 1 ? WIDTH / (values.length - 1) : WIDTH;
  // A flat week draws along the bottom; a line needs a little room above and below.
  const y = (value: number) => (max > 0 ? HEIGHT - 2 - (value / max) * (HEIGHT - 4) : HEIGHT - 2);
  const line = values.map((value, i) => `${(i * step).toFixed(2)},${y(value).toFixed(2)}`).join(' ');
  const area = `0,${HEIGHT} ${line} ${WIDTH},${HEIGHT}`;
  const label = `Daily spend: ${points
    .map((point, i) => `${formatDate(point.timestamp)} ${formatMoney(values[i], currency)}`)
    .join(', ')}`;

  return (
    <Box h={48} w="100%">
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        width="100%"
        height="100%"
        focusable="false"
      >
        {values.length > 0 ? (
          <>
            <polygon points={area} fill="var(--mantine-color-indigo-1)" />
            <polyline
              points={line}
              fill="none"
              stroke="var(--mantine-color-indigo-8)"
              strokeWidth={2}
              strokeLinejoin="round"
              vectorEffect="non-scaling-stroke"
            />
          </>
        ) : null}
      </svg>
    </Box>
  );
}
