/**
 * How each store number is counted, in the words shown next to it (Analytics
 * and the daily report on Home). Keyed by the metric's JSON name in the stores
 * API (`DayMetrics`, `ReportMetric.key`), so both pages explain a number the
 * same way. The rules are the "How numbers are counted".
 */
export const METRIC_FORMULAS = {
  grossSales: 'Gross sales = price × quantity, before discounts (gift cards excluded)',
  discounts: 'Discounts = product discounts at order time',
  returns: 'Returns = value of goods returned (after their discounts), on the day they were processed',
  netSales: 'Net sales = gross sales − discounts − returns',
  shipping: 'Shipping = shipping charges − shipping discounts − refunded shipping',
  taxes: 'Taxes = taxes charged on sales − refunded taxes',
  totalSales: 'Total sales = net sales + shipping + duties + fees + taxes',
  averageOrderValue: 'Average order value = (gross sales − discounts) ÷ orders',
  orders: 'Orders = orders placed (test and deleted orders excluded)',
  sessions: "Sessions = visits counted by Shopify's analytics",
  conversionRate: "Conversion rate = sessions that reached checkout completion ÷ sessions (from Shopify's analytics)",
} as const;

/**
 * Where WooCommerce Analytics counts a number differently, its words, as the
 * stores service words them (services/stores/internal/domain/platform.go,
 * research woocommerce.md §4): each says whose rule it is, so an owner who
 * knows Shopify's numbers is not misled. The rest keep METRIC_FORMULAS.
 */
export const WOOCOMMERCE_METRIC_FORMULAS: Partial<Record<keyof typeof METRIC_FORMULAS, string>> = {
  grossSales: "Gross sales = order totals + coupons − taxes − shipping, fees included (WooCommerce's rule)",
  returns: "Returns = refunds less their taxes and shipping, on the day refunded (WooCommerce's rule)",
  netSales: 'Net sales = gross sales − coupons − returns',
  totalSales: "Total sales = net sales + shipping + taxes (WooCommerce's rule: fees are in net sales)",
  averageOrderValue:
    "Average order value = net sales ÷ orders (WooCommerce's rule; Shopify's is (gross sales − discounts) ÷ orders)",
  orders:
    "Orders = orders counted on the day paid; pending, failed and cancelled ones left out (WooCommerce's rule; Shopify counts every order on the day placed)",
};

/** True when the API's `source` ("woocommerce", "woocommerce+import") says the numbers follow WooCommerce's rules. */
export function isWooCommerceSource(source: string | undefined): boolean {
  return (source ?? '').startsWith('woocommerce');
}

/** A metric the web shows, by its API name. */
export type MetricKey = keyof typeof METRIC_FORMULAS;

/** The metric's name as a label. */
export const METRIC_LABELS: Record<MetricKey, string> = {
  grossSales: 'Gross sales',
  discounts: 'Discounts',
  returns: 'Returns',
  netSales: 'Net sales',
  shipping: 'Shipping',
  taxes: 'Taxes',
  totalSales: 'Total sales',
  averageOrderValue: 'Average order value',
  orders: 'Orders',
  sessions: 'Sessions',
  conversionRate: 'Conversion rate',
};

/** How a metric's value is written: an amount of money, a count, or a percent. */
export type MetricKind = 'money' | 'count' | 'percent';

export const METRIC_KINDS: Record<MetricKey, MetricKind> = {
  grossSales: 'money',
  discounts: 'money',
  returns: 'money',
  netSales: 'money',
  shipping: 'money',
  taxes: 'money',
  totalSales: 'money',
  averageOrderValue: 'money',
  orders: 'count',
  sessions: 'count',
  conversionRate: 'percent',
};

/** Metrics where a rise is bad news (so a rise is coloured as a warning). */
const LOWER_IS_BETTER: ReadonlySet<MetricKey> = new Set<MetricKey>(['returns', 'discounts']);

export function isMetricKey(key: string | undefined): key is MetricKey {
  return key !== undefined && Object.prototype.hasOwnProperty.call(METRIC_FORMULAS, key);
}

export function higherIsBetter(key: string | undefined): boolean {
  return !(isMetricKey(key) && LOWER_IS_BETTER.has(key));
}

/**
 * The words for sessions and conversion when they come from a Google Analytics 4
 * property (the API's `sessionsSource` "ga4"), as the stores service words them
 * (services/stores/internal/domain/ga4.go): GA4's ecommercePurchases ÷ its sessions.
 */
export function ga4Formulas(property: string): Partial<Record<MetricKey, string>> {
  return {
    sessions: `Sessions = sessions, from Google Analytics 4 property ${property}`,
    conversionRate: `Conversion rate = purchases ÷ sessions, both from Google Analytics 4 property ${property} (its ecommercePurchases and sessions)`,
  };
}

/**
 * The formula for a key under the rules of the numbers' `source` (WooCommerce's
 * where they differ), or `fallback` (e.g. the server's own wording) for a key the web does not know.
 * With `ga4Property`, sessions and conversion are GA4's and say so.
 */
export function formulaFor(key: string | undefined, fallback = '', source?: string, ga4Property?: string): string {
  if (!isMetricKey(key)) return fallback;
  return (
    (ga4Property && ga4Formulas(ga4Property)[key]) ||
    (isWooCommerceSource(source) && WOOCOMMERCE_METRIC_FORMULAS[key]) ||
    METRIC_FORMULAS[key]
  );
}
