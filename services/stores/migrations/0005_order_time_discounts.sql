-- The average order value is (gross sales − discounts) ÷ orders over the
-- same daily columns the table by day shows, so the card and the table are
-- one number (issue 21, item 22). For that, discounts are the discounts
-- given when products were sold, and a returned product is valued after its
-- discount instead of reversing it in discounts; net sales do not change.
UPDATE sales SET returns = returns + discounts, discounts = 0
WHERE line = 'PRODUCT' AND action = 'RETURN' AND discounts <> 0;

UPDATE daily d SET discounts = s.discounts, returns = s.returns
FROM (
    SELECT category_id, local_day, sum(discounts)::bigint AS discounts, sum(returns)::bigint AS returns
    FROM sales GROUP BY category_id, local_day
) s
WHERE s.category_id = d.category_id AND s.local_day = d.day
  AND (d.discounts <> s.discounts OR d.returns <> s.returns);

-- order_value was a second numerator beside gross − discounts; one is kept.
ALTER TABLE daily DROP COLUMN order_value;
ALTER TABLE orders DROP COLUMN order_value;
