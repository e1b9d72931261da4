import { Bar, CartesianGrid, Cell, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount, formatMoney, toAmount, toCount } from '@uplift/platform';
import { isPartialDay } from '../lib/date-range';
import { CHART_HEIGHT_PX, type SalesChartProps } from './sales-chart';

const SALES_COLOUR = '#4f46e5';
const ORDERS_COLOUR = '#a5b4fc';
/** Today's bar: paler, as its numbers are not final. */
const PARTIAL_COLOUR = '#e0e7ff';
const SALES_NAME = 'Total sales';
const ORDERS_NAME = 'Orders';

/**
 * The chart itself, with recharts: total sales (a line, left axis) and orders
 * (bars, right axis) by day. In a chunk of its own (recharts is most of the
 * Analytics page's JavaScript), fetched only when there are numbers to draw.
 */
export function SalesChartPlot({ days, currency, today, format }: SalesChartProps) {
  const data = days.map((day) => ({
    date: day.date ?? '',
    totalSales: toAmount(day.totalSales),
    orders: toCount(day.orders),
    partial: isPartialDay(day.date, today),
  }));
  const label = (date: string) => (isPartialDay(date, today) ? `${format.day(date)} (today, so far)` : format.day(date));
  return (
    <ResponsiveContainer width="100%" height={CHART_HEIGHT_PX} minWidth={0}>
      <ComposedChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: 4 }}>
        <CartesianGrid stroke="#e4e4e7" vertical={false} />
        <XAxis
          dataKey="date"
          tickFormatter={(date: string) =>
            isPartialDay(date, today) ? `${format.dayNoYear(date)} (so far)` : format.dayNoYear(date)
          }
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
          labelFormatter={(date) => label(String(date))}
          formatter={(value, name) =>
            name === SALES_NAME ? formatMoney(Number(value), currency) : formatCount(Number(value))
          }
        />
        <Legend />
        <Bar yAxisId="orders" dataKey="orders" name={ORDERS_NAME} fill={ORDERS_COLOUR} isAnimationActive={false}>
          {data.map((point) => (
            <Cell key={point.date} fill={point.partial ? PARTIAL_COLOUR : ORDERS_COLOUR} />
          ))}
        </Bar>
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
  );
}
