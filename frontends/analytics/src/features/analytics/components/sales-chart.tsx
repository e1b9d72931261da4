import { useId } from 'react';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount, formatMoney, toAmount, toCount, type DayMetricsJson } from '@uplift/platform';
import { formatDay } from '../lib/date-range';

const CHART_HEIGHT_PX = 300;
const SALES_COLOUR = '#4f46e5';
const ORDERS_COLOUR = '#a5b4fc';
const SALES_NAME = 'Total sales';
const ORDERS_NAME = 'Orders';

export interface SalesChartProps {
  /** Oldest first, one per day. */
  days: DayMetricsJson[];
  currency: string | undefined;
}

/**
 * Total sales (a line, left axis) and orders (bars, right axis) by day, with
 * recharts. The daily table under it carries the same numbers for anyone who
 * cannot see the chart.
 */
export function SalesChart({ days, currency }: SalesChartProps) {
  const titleId = useId();
  const descriptionId = useId();
  const data = days.map((day) => ({
    date: day.date ?? '',
    totalSales: toAmount(day.totalSales),
    orders: toCount(day.orders),
  }));
  return (
    <figure className="chart u-card" aria-labelledby={titleId} aria-describedby={descriptionId}>
      <figcaption>
        <h2 id={titleId}>Daily sales and orders</h2>
        <p id={descriptionId} className="u-muted">
          Total sales (line, left axis) and orders (bars, right axis) for each day. The table below lists the same
          numbers.
        </p>
      </figcaption>
      <ResponsiveContainer width="100%" height={CHART_HEIGHT_PX} minWidth={0}>
        <ComposedChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: 4 }}>
          <CartesianGrid stroke="#e4e4e7" vertical={false} />
          <XAxis
            dataKey="date"
            tickFormatter={(date: string) => formatDay(date, { short: true })}
            minTickGap={16}
            tick={{ fontSize: 12 }}
          />
          <YAxis
            yAxisId="sales"
            tickFormatter={(value: number) => formatMoney(value, currency, { compact: true })}
            width={64}
            tick={{ fontSize: 12 }}
          />
          <YAxis
            yAxisId="orders"
            orientation="right"
            allowDecimals={false}
            width={36}
            tick={{ fontSize: 12 }}
          />
          <Tooltip
            labelFormatter={(label) => formatDay(String(label))}
            formatter={(value, name) =>
              name === SALES_NAME ? formatMoney(Number(value), currency) : formatCount(Number(value))
            }
          />
          <Legend />
          <Bar yAxisId="orders" dataKey="orders" name={ORDERS_NAME} fill={ORDERS_COLOUR} isAnimationActive={false} />
          <Line
            yAxisId="sales"
            type="monotone"
            dataKey="totalSales"
            name={SALES_NAME}
            stroke={SALES_COLOUR}
            strokeWidth={2}
            dot={days.length <= 31}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
