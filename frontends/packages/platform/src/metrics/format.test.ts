import { describe, expect, it } from 'vitest';
import { formatChange, formatCount, formatMetric, formatMoney, formatPercent, formatSessions, percentChange, toCount } from './format';
import { METRIC_FORMULAS, formulaFor, higherIsBetter } from './formulas';

describe('percentChange', () => {
  it('is the change against the base with one decimal, rounded half away from zero', () => {
    expect(percentChange('1125.00', '1000.00')).toBe('12.5');
    expect(percentChange('970', '1000')).toBe('-3.0');
    expect(percentChange('1000.00', '1000')).toBe('0.0');
    expect(percentChange('2', '3')).toBe('-33.3'); // -33.33…
    expect(percentChange('1.0005', '1')).toBe('0.1'); // 0.05 % rounds up
    expect(percentChange('0.9995', '1')).toBe('-0.1');
  });

  it('works on counts as strings or numbers and on percents', () => {
    expect(percentChange('12', 8)).toBe('50.0');
    expect(percentChange(45, '100')).toBe('-55.0');
    expect(percentChange('2.13', '1.42')).toBe('50.0');
  });

  it('has no value for a zero or missing base, or a missing value', () => {
    expect(percentChange('100.00', '0.00')).toBeNull();
    expect(percentChange('100.00', 0)).toBeNull();
    expect(percentChange('5', null)).toBeNull();
    expect(percentChange(null, '5')).toBeNull();
    expect(percentChange('5', 'abc')).toBeNull();
  });

  it('measures a move up from a negative base as a rise', () => {
    expect(percentChange('-50', '-100')).toBe('50.0');
  });
});

describe('formatChange', () => {
  it('writes an explicit sign, a real minus and one decimal', () => {
    expect(formatChange('12.5')).toEqual({ text: '+12.5 %', direction: 'up', tone: 'good' });
    expect(formatChange('-3')).toEqual({ text: '−3.0 %', direction: 'down', tone: 'bad' });
    expect(formatChange('0.0')).toEqual({ text: '0.0 %', direction: 'flat', tone: 'neutral' });
  });

  it('is a dash when there is no change', () => {
    expect(formatChange(null).text).toBe('—');
    expect(formatChange(undefined).direction).toBeNull();
  });

  it('colours a rise in returns as bad news', () => {
    expect(formatChange('20', { higherIsBetter: higherIsBetter('returns') }).tone).toBe('bad');
    expect(formatChange('20', { higherIsBetter: higherIsBetter('orders') }).tone).toBe('good');
  });
});

describe('formatting', () => {
  it('writes money in the given currency', () => {
    const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
    expect(formatMoney('16940.00', 'USD')).toBe(usd.format(16940));
    expect(formatMoney('16940.00', 'PKR')).toBe(
      new Intl.NumberFormat(undefined, { style: 'currency', currency: 'PKR' }).format(16940),
    );
    expect(formatMoney(null, 'USD')).toBe('—');
  });

  it('falls back to a plain number when the currency is not a code', () => {
    expect(formatMoney('5', '')).toBe(new Intl.NumberFormat(undefined, { minimumFractionDigits: 2 }).format(5));
    expect(formatMoney('5', 'NOT A CODE')).toContain('NOT A CODE');
  });

  it('reads int64 counts sent as strings or numbers, absent as zero', () => {
    expect(toCount('12')).toBe(12);
    expect(toCount(12)).toBe(12);
    expect(toCount(undefined)).toBe(0);
    expect(formatCount('1204')).toBe(new Intl.NumberFormat().format(1204));
    expect(formatPercent('2.13')).toBe(`${new Intl.NumberFormat().format(2.13)} %`);
    expect(formatPercent('4')).toBe(`${new Intl.NumberFormat(undefined, { minimumFractionDigits: 2 }).format(4)} %`);
  });
});

describe('formulas', () => {
  it('holds the net sales wording exactly', () => {
    expect(METRIC_FORMULAS.netSales).toBe('Net sales = gross sales − discounts − returns');
  });

  it('falls back to the given wording for a key the web does not know', () => {
    expect(formulaFor('duties', 'Duties = duties charged')).toBe('Duties = duties charged');
    expect(formulaFor('orders', 'ignored')).toBe(METRIC_FORMULAS.orders);
  });

  it("words a WooCommerce store's numbers by WooCommerce's rules where they differ, and keeps the rest", () => {
    for (const source of ['woocommerce', 'woocommerce+import']) {
      expect(formulaFor('averageOrderValue', '', source)).toBe(
        "Average order value = net sales ÷ orders (WooCommerce's rule; Shopify's is (gross sales − discounts) ÷ orders)",
      );
      expect(formulaFor('taxes', '', source)).toBe(METRIC_FORMULAS.taxes);
    }
    for (const source of ['shopify', 'shopify+import', 'import', 'none', undefined]) {
      expect(formulaFor('averageOrderValue', '', source)).toBe(METRIC_FORMULAS.averageOrderValue);
    }
  });
});

describe('sessions', () => {
  it('are whole visits, on average too, in the store locale', () => {
    expect(formatMetric('sessions', '412.3', 'USD')).toBe('412');
    expect(formatMetric('sessions', 1234, 'USD')).toBe('1,234');
    expect(formatSessions('99.5')).toBe('100');
    expect(formatMetric('orders', '21.9', 'USD')).toBe('21.9');
  });
});
