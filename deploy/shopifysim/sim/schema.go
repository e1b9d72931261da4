package sim

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/graphql-go/graphql"
)

// maxPage is Shopify's cap on `first`.
const maxPage = 250

type ctxKey struct{}

// reqInfo is what resolvers know about the call: the shop, the token's scopes,
// and whether it runs inside a bulk operation (no page limits).
type reqInfo struct {
	sh   *shop
	tok  *accessToken
	bulk bool
}

func info(p graphql.ResolveParams) *reqInfo { return p.Context.Value(ctxKey{}).(*reqInfo) }

// codedError is a GraphQL error with Shopify's extensions.code.
type codedError struct{ msg, code string }

func (e codedError) Error() string              { return e.msg }
func (e codedError) Extensions() map[string]any { return map[string]any{"code": e.code} }
func withInfo(ctx context.Context, ri *reqInfo) context.Context {
	return context.WithValue(ctx, ctxKey{}, ri)
}

func field[T any](t graphql.Output, fn func(T) any) *graphql.Field {
	return &graphql.Field{Type: t, Resolve: func(p graphql.ResolveParams) (any, error) {
		v, ok := p.Source.(T)
		if !ok {
			return nil, nil
		}
		return fn(v), nil
	}}
}

func nn(t graphql.Output) graphql.Output { return graphql.NewNonNull(t) }

func money(minor int64, cur string) map[string]any {
	m := map[string]any{"amount": decimal(minor, cur), "currencyCode": cur}
	return map[string]any{"shopMoney": m, "presentmentMoney": m}
}

func enum(name string, values ...string) *graphql.Enum {
	m := graphql.EnumValueConfigMap{}
	for _, v := range values {
		m[v] = &graphql.EnumValueConfig{Value: v}
	}
	return graphql.NewEnum(graphql.EnumConfig{Name: name, Values: m})
}

var pageArgs = graphql.FieldConfigArgument{
	"first": {Type: graphql.Int},
	"after": {Type: graphql.String},
}

// item is one connection entry with its sort key, so cursors survive inserts.
type item struct {
	key, id int64
	node    any
}

func encodeCursor(key, id int64) string {
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%d:%d", key, id))
}

func decodeCursor(c string) (key, id int64, err error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err == nil {
		_, err = fmt.Sscanf(string(b), "%d:%d", &key, &id)
	}
	if err != nil {
		return 0, 0, codedError{"Invalid cursor for current pagination sort.", "BAD_REQUEST"}
	}
	return key, id, nil
}

// paginate sorts items by (key, id), skips past `after` and cuts at `first`.
// Inside a bulk operation there is no page limit, as on Shopify.
func paginate(p graphql.ResolveParams, items []item, reverse bool) (map[string]any, error) {
	less := func(a, b item) bool {
		if a.key != b.key {
			return a.key < b.key
		}
		return a.id < b.id
	}
	sort.Slice(items, func(i, j int) bool {
		if reverse {
			return less(items[j], items[i])
		}
		return less(items[i], items[j])
	})
	limit := len(items)
	first, hasFirst := p.Args["first"].(int)
	if !info(p).bulk {
		if !hasFirst {
			return nil, codedError{"you must provide one of first or last", "BAD_REQUEST"}
		}
		if first < 0 || first > maxPage {
			return nil, codedError{fmt.Sprintf("The value of first must be between 0 and %d.", maxPage), "BAD_REQUEST"}
		}
	}
	if hasFirst && first >= 0 && first < limit {
		limit = first
	}
	start := 0
	if after, ok := p.Args["after"].(string); ok && after != "" {
		k, id, err := decodeCursor(after)
		if err != nil {
			return nil, err
		}
		c := item{key: k, id: id}
		start = sort.Search(len(items), func(i int) bool {
			if reverse {
				return less(items[i], c)
			}
			return less(c, items[i])
		})
	}
	end := min(start+limit, len(items))
	edges, nodes := []any{}, []any{}
	for _, it := range items[start:end] {
		edges = append(edges, map[string]any{"cursor": encodeCursor(it.key, it.id), "node": it.node})
		nodes = append(nodes, it.node)
	}
	pi := map[string]any{"hasNextPage": end < len(items), "hasPreviousPage": start > 0, "startCursor": nil, "endCursor": nil}
	if end > start {
		pi["startCursor"] = encodeCursor(items[start].key, items[start].id)
		pi["endCursor"] = encodeCursor(items[end-1].key, items[end-1].id)
	}
	return map[string]any{"edges": edges, "nodes": nodes, "pageInfo": pi}, nil
}

func indexed[T any](xs []T) []item {
	out := make([]item, len(xs))
	for i, x := range xs {
		out[i] = item{key: int64(i), id: int64(i), node: x}
	}
	return out
}

func parseGID(s, kind string) (int64, bool) {
	rest, ok := strings.CutPrefix(s, "gid://shopify/"+kind+"/")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	return n, err == nil
}

func (s *Server) buildSchema() graphql.Schema {
	pageInfo := graphql.NewObject(graphql.ObjectConfig{Name: "PageInfo", Fields: graphql.Fields{
		"hasNextPage":     {Type: nn(graphql.Boolean)},
		"hasPreviousPage": {Type: nn(graphql.Boolean)},
		"startCursor":     {Type: graphql.String},
		"endCursor":       {Type: graphql.String},
	}})
	connection := func(name string, node graphql.Output) *graphql.Object {
		edge := graphql.NewObject(graphql.ObjectConfig{Name: name + "Edge", Fields: graphql.Fields{
			"cursor": {Type: nn(graphql.String)},
			"node":   {Type: nn(node)},
		}})
		return graphql.NewObject(graphql.ObjectConfig{Name: name + "Connection", Fields: graphql.Fields{
			"edges":    {Type: nn(graphql.NewList(nn(edge)))},
			"nodes":    {Type: nn(graphql.NewList(nn(node)))},
			"pageInfo": {Type: nn(pageInfo)},
		}})
	}
	moneyV2 := graphql.NewObject(graphql.ObjectConfig{Name: "MoneyV2", Fields: graphql.Fields{
		"amount":       {Type: nn(graphql.String)},
		"currencyCode": {Type: nn(graphql.String)},
	}})
	moneyBag := graphql.NewObject(graphql.ObjectConfig{Name: "MoneyBag", Fields: graphql.Fields{
		"shopMoney":        {Type: nn(moneyV2)},
		"presentmentMoney": {Type: nn(moneyV2)},
	}})
	imageT := graphql.NewObject(graphql.ObjectConfig{Name: "Image", Fields: graphql.Fields{
		"url":     {Type: nn(graphql.String)},
		"altText": {Type: graphql.String},
	}})
	priceRange := graphql.NewObject(graphql.ObjectConfig{Name: "ProductPriceRangeV2", Fields: graphql.Fields{
		"minVariantPrice": {Type: nn(moneyV2)},
		"maxVariantPrice": {Type: nn(moneyV2)},
	}})
	count := graphql.NewObject(graphql.ObjectConfig{Name: "Count", Fields: graphql.Fields{
		"count":     {Type: nn(graphql.Int)},
		"precision": {Type: nn(enum("CountPrecision", "EXACT", "AT_LEAST"))},
	}})
	countOf := func(n int) map[string]any { return map[string]any{"count": n, "precision": "EXACT"} }

	shopT := graphql.NewObject(graphql.ObjectConfig{Name: "Shop", Fields: graphql.Fields{
		"id":              field(nn(graphql.ID), func(sh *shop) any { return gid("Shop", sh.id) }),
		"name":            field(nn(graphql.String), func(sh *shop) any { return sh.spec.Name }),
		"myshopifyDomain": field(nn(graphql.String), func(sh *shop) any { return sh.spec.Domain }),
		"ianaTimezone":    field(nn(graphql.String), func(sh *shop) any { return sh.spec.Timezone }),
		"currencyCode":    field(nn(graphql.String), func(sh *shop) any { return sh.spec.Currency }),
		"taxesIncluded":   field(nn(graphql.Boolean), func(sh *shop) any { return sh.spec.TaxesIncluded }),
	}})

	productT := graphql.NewObject(graphql.ObjectConfig{Name: "Product", Fields: graphql.Fields{
		"id":               field(nn(graphql.ID), func(p *product) any { return gid("Product", p.id) }),
		"legacyResourceId": field(nn(graphql.String), func(p *product) any { return strconv.FormatInt(p.id, 10) }),
		"title":            field(nn(graphql.String), func(p *product) any { return p.title }),
		"handle":           field(nn(graphql.String), func(p *product) any { return p.handle }),
		"status":           field(nn(enum("ProductStatus", "ACTIVE", "ARCHIVED", "DRAFT")), func(p *product) any { return "ACTIVE" }),
		"createdAt":        field(nn(graphql.String), func(p *product) any { return iso(p.createdAt) }),
		"updatedAt":        field(nn(graphql.String), func(p *product) any { return iso(p.updatedAt) }),
		"featuredImage": {Type: imageT, Resolve: func(p graphql.ResolveParams) (any, error) {
			if pr, ok := p.Source.(*product); ok && pr.imageURL != "" {
				return map[string]any{"url": pr.imageURL, "altText": pr.title}, nil
			}
			return nil, nil
		}},
		"priceRangeV2": {Type: nn(priceRange), Resolve: func(p graphql.ResolveParams) (any, error) {
			pr, _ := p.Source.(*product)
			var price int64
			if pr != nil {
				price = pr.price
			}
			m := money(price, info(p).sh.spec.Currency)["shopMoney"]
			return map[string]any{"minVariantPrice": m, "maxVariantPrice": m}, nil
		}},
	}})

	customerT := graphql.NewObject(graphql.ObjectConfig{Name: "Customer", Fields: graphql.Fields{
		"id":               field(nn(graphql.ID), func(c *customer) any { return gid("Customer", c.id) }),
		"legacyResourceId": field(nn(graphql.String), func(c *customer) any { return strconv.FormatInt(c.id, 10) }),
		"createdAt":        field(nn(graphql.String), func(c *customer) any { return iso(c.createdAt) }),
		"updatedAt":        field(nn(graphql.String), func(c *customer) any { return iso(c.updatedAt) }),
		"numberOfOrders": {Type: nn(graphql.String), Resolve: func(p graphql.ResolveParams) (any, error) {
			c, _ := p.Source.(*customer)
			n := 0
			for _, o := range info(p).sh.orders {
				if c != nil && o.customerID == c.id {
					n++
				}
			}
			return strconv.Itoa(n), nil // UnsignedInt64 is a string on Shopify
		}},
	}})

	productRef := func(p graphql.ResolveParams, id int64) any {
		if pr, ok := info(p).sh.products[id]; ok {
			return pr
		}
		return nil
	}
	type lineRef struct {
		li  *lineItem
		cur string
	}
	lineItemT := graphql.NewObject(graphql.ObjectConfig{Name: "LineItem", Fields: graphql.Fields{
		"id":              field(nn(graphql.ID), func(l lineRef) any { return gid("LineItem", l.li.id) }),
		"name":            field(nn(graphql.String), func(l lineRef) any { return l.li.spec.Title }),
		"title":           field(nn(graphql.String), func(l lineRef) any { return l.li.spec.Title }),
		"quantity":        field(nn(graphql.Int), func(l lineRef) any { return l.li.spec.Quantity }),
		"currentQuantity": field(nn(graphql.Int), func(l lineRef) any { return l.li.qtyLeft }),
		"sku": field(graphql.String, func(l lineRef) any {
			if l.li.spec.SKU == "" {
				return nil
			}
			return l.li.spec.SKU
		}),
		"isGiftCard": field(nn(graphql.Boolean), func(l lineRef) any { return l.li.spec.GiftCard }),
		"product": {Type: productT, Resolve: func(p graphql.ResolveParams) (any, error) {
			return productRef(p, p.Source.(lineRef).li.spec.ProductID), nil
		}},
		"originalUnitPriceSet": field(nn(moneyBag), func(l lineRef) any { return money(l.li.spec.UnitPrice, l.cur) }),
		"originalTotalSet":     field(nn(moneyBag), func(l lineRef) any { return money(l.li.spec.UnitPrice*l.li.spec.Quantity, l.cur) }),
		"totalDiscountSet":     field(nn(moneyBag), func(l lineRef) any { return money(l.li.spec.Discount, l.cur) }),
	}})

	type saleRef struct {
		sa  *sale
		cur string
	}
	actionEnum := enum("SaleActionType", "ORDER", "RETURN", "UPDATE", "UNKNOWN")
	lineTypeEnum := enum("SaleLineType", "PRODUCT", "SHIPPING", "GIFT_CARD", "DUTY", "ADDITIONAL_FEE", "FEE", "TIP", "UNKNOWN")
	saleFields := func(extra graphql.Fields) graphql.Fields {
		f := graphql.Fields{
			"id":                             field(nn(graphql.ID), func(r saleRef) any { return gid("Sale", r.sa.id) }),
			"actionType":                     field(nn(actionEnum), func(r saleRef) any { return r.sa.actionType }),
			"lineType":                       field(nn(lineTypeEnum), func(r saleRef) any { return r.sa.lineType }),
			"quantity":                       field(graphql.Int, func(r saleRef) any { return r.sa.quantity }),
			"totalAmount":                    field(nn(moneyBag), func(r saleRef) any { return money(r.sa.total, r.cur) }),
			"totalDiscountAmountBeforeTaxes": field(moneyBag, func(r saleRef) any { return money(r.sa.discount, r.cur) }),
			"totalDiscountAmountAfterTaxes":  field(moneyBag, func(r saleRef) any { return money(r.sa.discount, r.cur) }),
			"totalTaxAmount":                 field(nn(moneyBag), func(r saleRef) any { return money(r.sa.tax, r.cur) }),
		}
		for k, v := range extra {
			f[k] = v
		}
		return f
	}
	saleIface := graphql.NewInterface(graphql.InterfaceConfig{Name: "Sale", Fields: saleFields(nil)})
	lineItemField := func() *graphql.Field {
		return &graphql.Field{Type: nn(lineItemT), Resolve: func(p graphql.ResolveParams) (any, error) {
			r := p.Source.(saleRef)
			return lineRef{r.sa.line, r.cur}, nil
		}}
	}
	saleTypes := map[string]*graphql.Object{}
	for _, name := range []string{"ProductSale", "GiftCardSale", "ShippingLineSale", "DutySale", "AdditionalFeeSale", "FeeSale", "TipSale", "UnknownSale"} {
		var extra graphql.Fields
		if name == "ProductSale" || name == "GiftCardSale" {
			extra = graphql.Fields{"lineItem": lineItemField()}
		}
		saleTypes[name] = graphql.NewObject(graphql.ObjectConfig{Name: name, Interfaces: []*graphql.Interface{saleIface}, Fields: saleFields(extra)})
	}
	saleIface.ResolveType = func(p graphql.ResolveTypeParams) *graphql.Object {
		return saleTypes[p.Value.(saleRef).sa.typename]
	}
	saleConn := connection("Sale", saleIface)

	type agRef struct {
		ag  *agreement
		cur string
	}
	reasonEnum := enum("OrderActionType", "ORDER", "ORDER_EDIT", "REFUND", "RETURN", "UNKNOWN")
	agFields := func() graphql.Fields {
		return graphql.Fields{
			"id":         field(nn(graphql.ID), func(r agRef) any { return gid("SalesAgreement", r.ag.id) }),
			"happenedAt": field(nn(graphql.String), func(r agRef) any { return iso(r.ag.happenedAt) }),
			"reason":     field(nn(reasonEnum), func(r agRef) any { return r.ag.reason }),
			"sales": {Type: nn(saleConn), Args: pageArgs, Resolve: func(p graphql.ResolveParams) (any, error) {
				r := p.Source.(agRef)
				refs := make([]saleRef, len(r.ag.sales))
				for i, sa := range r.ag.sales {
					refs[i] = saleRef{sa, r.cur}
				}
				return paginate(p, indexed(refs), false)
			}},
		}
	}
	agIface := graphql.NewInterface(graphql.InterfaceConfig{Name: "SalesAgreement", Fields: agFields()})
	agTypes := map[string]*graphql.Object{}
	for _, name := range []string{"OrderAgreement", "OrderEditAgreement", "RefundAgreement", "ReturnAgreement"} {
		agTypes[name] = graphql.NewObject(graphql.ObjectConfig{Name: name, Interfaces: []*graphql.Interface{agIface}, Fields: agFields()})
	}
	agIface.ResolveType = func(p graphql.ResolveTypeParams) *graphql.Object { return agTypes[p.Value.(agRef).ag.typename] }
	agConn := connection("SalesAgreement", agIface)
	lineConn := connection("LineItem", lineItemT)

	orderT := graphql.NewObject(graphql.ObjectConfig{Name: "Order", Fields: graphql.Fields{
		"id":               field(nn(graphql.ID), func(o *order) any { return gid("Order", o.id) }),
		"legacyResourceId": field(nn(graphql.String), func(o *order) any { return strconv.FormatInt(o.id, 10) }),
		"name":             field(nn(graphql.String), func(o *order) any { return o.name }),
		"createdAt":        field(nn(graphql.String), func(o *order) any { return iso(o.createdAt) }),
		"updatedAt":        field(nn(graphql.String), func(o *order) any { return iso(o.updatedAt) }),
		"processedAt":      field(nn(graphql.String), func(o *order) any { return iso(o.createdAt) }),
		"cancelledAt": field(graphql.String, func(o *order) any {
			if o.cancelledAt == nil {
				return nil
			}
			return iso(*o.cancelledAt)
		}),
		"test":          field(nn(graphql.Boolean), func(o *order) any { return o.test }),
		"currencyCode":  field(nn(graphql.String), func(o *order) any { return o.currency }),
		"taxesIncluded": field(nn(graphql.Boolean), func(o *order) any { return o.taxesIncluded }),
		"customer": {Type: graphql.NewObject(graphql.ObjectConfig{Name: "OrderCustomer", Fields: graphql.Fields{"id": {Type: nn(graphql.ID)}}}),
			Resolve: func(p graphql.ResolveParams) (any, error) {
				o := p.Source.(*order)
				if o.customerID == 0 {
					return nil, nil
				}
				return map[string]any{"id": gid("Customer", o.customerID)}, nil
			}},
		"lineItems": {Type: nn(lineConn), Args: pageArgs, Resolve: func(p graphql.ResolveParams) (any, error) {
			o := p.Source.(*order)
			refs := make([]lineRef, len(o.lines))
			for i, li := range o.lines {
				refs[i] = lineRef{li, o.currency}
			}
			return paginate(p, indexed(refs), false)
		}},
		"agreements": {Type: nn(agConn), Args: pageArgs, Resolve: func(p graphql.ResolveParams) (any, error) {
			o := p.Source.(*order)
			refs := make([]agRef, len(o.agreements))
			for i, a := range o.agreements {
				refs[i] = agRef{a, o.currency}
			}
			return paginate(p, indexed(refs), false)
		}},
	}})

	bulkT := graphql.NewObject(graphql.ObjectConfig{Name: "BulkOperation", Fields: graphql.Fields{
		"id":              field(nn(graphql.ID), func(b *bulkOp) any { return gid("BulkOperation", b.id) }),
		"status":          field(nn(enum("BulkOperationStatus", "CREATED", "RUNNING", "COMPLETED", "FAILED", "CANCELING", "CANCELED", "EXPIRED")), func(b *bulkOp) any { return b.status }),
		"errorCode":       field(enum("BulkOperationErrorCode", "ACCESS_DENIED", "INTERNAL_SERVER_ERROR", "TIMEOUT"), func(b *bulkOp) any { return nilIfEmpty(b.errorCode) }),
		"createdAt":       field(nn(graphql.String), func(b *bulkOp) any { return iso(b.createdAt) }),
		"completedAt":     field(graphql.String, func(b *bulkOp) any { return isoPtr(b.completedAt) }),
		"objectCount":     field(nn(graphql.String), func(b *bulkOp) any { return strconv.FormatInt(b.objectCount, 10) }),
		"rootObjectCount": field(nn(graphql.String), func(b *bulkOp) any { return strconv.FormatInt(b.rootCount, 10) }),
		"fileSize": field(graphql.String, func(b *bulkOp) any {
			if b.url == "" {
				return nil
			}
			return strconv.Itoa(len(b.data))
		}),
		"url":            field(graphql.String, func(b *bulkOp) any { return nilIfEmpty(b.url) }),
		"partialDataUrl": field(graphql.String, func(b *bulkOp) any { return nil }),
		"query":          field(nn(graphql.String), func(b *bulkOp) any { return b.query }),
		"type":           field(nn(enum("BulkOperationType", "QUERY", "MUTATION")), func(b *bulkOp) any { return "QUERY" }),
	}})
	userError := graphql.NewObject(graphql.ObjectConfig{Name: "UserError", Fields: graphql.Fields{
		"field":   {Type: graphql.NewList(nn(graphql.String))},
		"message": {Type: nn(graphql.String)},
	}})
	userErrors := &graphql.Field{Type: nn(graphql.NewList(nn(userError)))}
	bulkPayload := func(name string) *graphql.Object {
		return graphql.NewObject(graphql.ObjectConfig{Name: name, Fields: graphql.Fields{
			"bulkOperation": {Type: bulkT},
			"userErrors":    userErrors,
		}})
	}

	topicValues := make([]string, 0, len(topics))
	for k := range topics {
		topicValues = append(topicValues, k)
	}
	slices.Sort(topicValues)
	topicEnum := enum("WebhookSubscriptionTopic", topicValues...)
	subT := graphql.NewObject(graphql.ObjectConfig{Name: "WebhookSubscription", Fields: graphql.Fields{
		"id":          field(nn(graphql.ID), func(w *subscription) any { return gid("WebhookSubscription", w.id) }),
		"topic":       field(nn(topicEnum), func(w *subscription) any { return w.topic }),
		"uri":         field(nn(graphql.String), func(w *subscription) any { return w.uri }),
		"callbackUrl": field(nn(graphql.String), func(w *subscription) any { return w.uri }),
		"format":      field(nn(enum("WebhookSubscriptionFormat", "JSON", "XML")), func(w *subscription) any { return "JSON" }),
		"createdAt":   field(nn(graphql.String), func(w *subscription) any { return iso(w.createdAt) }),
	}})
	subInput := graphql.NewInputObject(graphql.InputObjectConfig{Name: "WebhookSubscriptionInput", Fields: graphql.InputObjectConfigFieldMap{
		"uri":         {Type: graphql.String},
		"callbackUrl": {Type: graphql.String},
		"format":      {Type: graphql.String},
	}})

	jsonScalar := graphql.NewScalar(graphql.ScalarConfig{Name: "JSON", Serialize: func(v any) any { return v }})
	qlT := graphql.NewObject(graphql.ObjectConfig{Name: "ShopifyqlQueryResponse", Fields: graphql.Fields{
		"tableData": {Type: graphql.NewObject(graphql.ObjectConfig{Name: "ShopifyqlTableData", Fields: graphql.Fields{
			"columns": {Type: nn(graphql.NewList(nn(graphql.NewObject(graphql.ObjectConfig{Name: "ShopifyqlTableDataColumn", Fields: graphql.Fields{
				"name":        {Type: nn(graphql.String)},
				"dataType":    {Type: nn(graphql.String)},
				"displayName": {Type: nn(graphql.String)},
			}}))))},
			"rows": {Type: nn(jsonScalar)},
		}})},
		"parseErrors": {Type: nn(graphql.NewList(nn(graphql.String)))},
	}})

	searchArgs := graphql.FieldConfigArgument{
		"first": {Type: graphql.Int}, "after": {Type: graphql.String}, "query": {Type: graphql.String},
		"reverse": {Type: graphql.Boolean, DefaultValue: false},
	}
	orderArgs := graphql.FieldConfigArgument{"sortKey": {Type: enum("OrderSortKeys", "CREATED_AT", "UPDATED_AT", "ID", "PROCESSED_AT")}}
	for k, v := range searchArgs {
		orderArgs[k] = v
	}
	str := func(p graphql.ResolveParams, k string) string { v, _ := p.Args[k].(string); return v }

	query := graphql.NewObject(graphql.ObjectConfig{Name: "QueryRoot", Fields: graphql.Fields{
		"shop": {Type: nn(shopT), Resolve: func(p graphql.ResolveParams) (any, error) { return info(p).sh, nil }},
		"orders": {Type: nn(connection("Order", orderT)), Args: orderArgs, Resolve: func(p graphql.ResolveParams) (any, error) {
			sh := info(p).sh
			fs, err := parseSearch(str(p, "query"), sh.loc)
			if err != nil {
				return nil, err
			}
			var items []item
			for _, o := range sh.orders {
				if !fs.match(o.createdAt, o.updatedAt, o.test) {
					continue
				}
				key := o.id
				switch str(p, "sortKey") {
				case "CREATED_AT", "PROCESSED_AT":
					key = o.createdAt.UnixNano()
				case "UPDATED_AT":
					key = o.updatedAt.UnixNano()
				}
				items = append(items, item{key: key, id: o.id, node: o})
			}
			rev, _ := p.Args["reverse"].(bool)
			return paginate(p, items, rev)
		}},
		"order": {Type: orderT, Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}}, Resolve: func(p graphql.ResolveParams) (any, error) {
			if id, ok := parseGID(str(p, "id"), "Order"); ok {
				if o, ok := info(p).sh.orders[id]; ok {
					return o, nil
				}
			}
			return nil, nil
		}},
		"ordersCount": {Type: count, Args: graphql.FieldConfigArgument{"query": {Type: graphql.String}}, Resolve: func(p graphql.ResolveParams) (any, error) {
			sh := info(p).sh
			fs, err := parseSearch(str(p, "query"), sh.loc)
			if err != nil {
				return nil, err
			}
			n := 0
			for _, o := range sh.orders {
				if fs.match(o.createdAt, o.updatedAt, o.test) {
					n++
				}
			}
			return countOf(n), nil
		}},
		"products": {Type: nn(connection("Product", productT)), Args: searchArgs, Resolve: func(p graphql.ResolveParams) (any, error) {
			sh := info(p).sh
			fs, err := parseSearch(str(p, "query"), sh.loc)
			if err != nil {
				return nil, err
			}
			var items []item
			for _, pr := range sh.products {
				if fs.match(pr.createdAt, pr.updatedAt, false) {
					items = append(items, item{key: pr.id, id: pr.id, node: pr})
				}
			}
			rev, _ := p.Args["reverse"].(bool)
			return paginate(p, items, rev)
		}},
		"productsCount": {Type: count, Args: graphql.FieldConfigArgument{"query": {Type: graphql.String}}, Resolve: func(p graphql.ResolveParams) (any, error) {
			return countOf(len(info(p).sh.products)), nil
		}},
		"customers": {Type: nn(connection("Customer", customerT)), Args: searchArgs, Resolve: func(p graphql.ResolveParams) (any, error) {
			sh := info(p).sh
			fs, err := parseSearch(str(p, "query"), sh.loc)
			if err != nil {
				return nil, err
			}
			var items []item
			for _, c := range sh.customers {
				if fs.match(c.createdAt, c.updatedAt, false) {
					items = append(items, item{key: c.id, id: c.id, node: c})
				}
			}
			rev, _ := p.Args["reverse"].(bool)
			return paginate(p, items, rev)
		}},
		"customersCount": {Type: count, Args: graphql.FieldConfigArgument{"query": {Type: graphql.String}}, Resolve: func(p graphql.ResolveParams) (any, error) {
			return countOf(len(info(p).sh.customers)), nil
		}},
		"currentBulkOperation": {Type: bulkT, Resolve: func(p graphql.ResolveParams) (any, error) {
			sh := info(p).sh
			if len(sh.bulks) == 0 {
				return nil, nil
			}
			return sh.bulks[len(sh.bulks)-1], nil
		}},
		"bulkOperation": {Type: bulkT, Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}}, Resolve: func(p graphql.ResolveParams) (any, error) {
			return findBulk(info(p).sh, str(p, "id")), nil
		}},
		"webhookSubscriptions": {Type: nn(connection("WebhookSubscription", subT)), Args: pageArgs, Resolve: func(p graphql.ResolveParams) (any, error) {
			return paginate(p, indexed(info(p).sh.subs), false)
		}},
		"shopifyqlQuery": {Type: qlT, Args: graphql.FieldConfigArgument{"query": {Type: nn(graphql.String)}}, Resolve: func(p graphql.ResolveParams) (any, error) {
			ri := info(p)
			if ri.tok == nil || !slices.Contains(ri.tok.scopes, "read_reports") {
				return nil, codedError{"Access denied for shopifyqlQuery field.", "ACCESS_DENIED"}
			}
			return shopifyQL(ri.sh, str(p, "query")), nil
		}},
	}})

	mutation := graphql.NewObject(graphql.ObjectConfig{Name: "Mutation", Fields: graphql.Fields{
		"bulkOperationRunQuery": {Type: bulkPayload("BulkOperationRunQueryPayload"), Args: graphql.FieldConfigArgument{"query": {Type: nn(graphql.String)}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				b, uerr := s.startBulkLocked(info(p).sh, str(p, "query"))
				return map[string]any{"bulkOperation": b, "userErrors": uerr}, nil
			}},
		"bulkOperationCancel": {Type: bulkPayload("BulkOperationCancelPayload"), Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				b, uerr := s.cancelBulkLocked(info(p).sh, str(p, "id"))
				return map[string]any{"bulkOperation": b, "userErrors": uerr}, nil
			}},
		"webhookSubscriptionCreate": {
			Type: graphql.NewObject(graphql.ObjectConfig{Name: "WebhookSubscriptionCreatePayload", Fields: graphql.Fields{
				"webhookSubscription": {Type: subT},
				"userErrors":          userErrors,
			}}),
			Args: graphql.FieldConfigArgument{"topic": {Type: nn(topicEnum)}, "webhookSubscription": {Type: nn(subInput)}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				in, _ := p.Args["webhookSubscription"].(map[string]any)
				uri, _ := in["uri"].(string)
				fieldName := "uri"
				if uri == "" {
					uri, _ = in["callbackUrl"].(string)
					fieldName = "callbackUrl"
				}
				sub, msg := s.subscribeLocked(info(p).sh, str(p, "topic"), uri)
				if msg != "" {
					return map[string]any{"webhookSubscription": nil, "userErrors": []any{uerr([]string{"webhookSubscription", fieldName}, msg)}}, nil
				}
				return map[string]any{"webhookSubscription": sub, "userErrors": []any{}}, nil
			}},
		"webhookSubscriptionDelete": {
			Type: graphql.NewObject(graphql.ObjectConfig{Name: "WebhookSubscriptionDeletePayload", Fields: graphql.Fields{
				"deletedWebhookSubscriptionId": {Type: graphql.ID},
				"userErrors":                   userErrors,
			}}),
			Args: graphql.FieldConfigArgument{"id": {Type: nn(graphql.ID)}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				sh := info(p).sh
				id := str(p, "id")
				for i, w := range sh.subs {
					if gid("WebhookSubscription", w.id) == id {
						sh.subs = slices.Delete(sh.subs, i, i+1)
						return map[string]any{"deletedWebhookSubscriptionId": id, "userErrors": []any{}}, nil
					}
				}
				return map[string]any{"deletedWebhookSubscriptionId": nil, "userErrors": []any{uerr([]string{"id"}, "Webhook subscription does not exist")}}, nil
			}},
	}})

	var types []graphql.Type
	for _, t := range saleTypes {
		types = append(types, t)
	}
	for _, t := range agTypes {
		types = append(types, t)
	}
	schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutation, Types: types})
	if err != nil {
		panic(fmt.Sprintf("shopifysim: schema: %v", err)) // a programming error, caught by every test
	}
	return schema
}

func uerr(field []string, msg string) map[string]any {
	return map[string]any{"field": field, "message": msg}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func isoPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return iso(*t)
}

func (s *Server) subscribeLocked(sh *shop, topic, uri string) (*subscription, string) {
	if !validURI(uri) {
		return nil, "Address is invalid"
	}
	for _, w := range sh.subs {
		if w.topic == topic && w.uri == uri {
			return nil, "Address for this topic has already been taken"
		}
	}
	sub := &subscription{id: sh.nextID(), topic: topic, uri: uri, createdAt: s.now()}
	sh.subs = append(sh.subs, sub)
	return sub, ""
}

var errBadSearch = errors.New("bad search")

// searchFilter is the subset of Shopify's search syntax the sync uses.
type searchFilter []term

type term struct {
	field, op string
	t         time.Time
	b         bool
}

// parseSearch reads `updated_at:>=ISO created_at:>ISO test:false`, joined by
// spaces or AND. Unknown fields are ignored, as Shopify ignores them.
func parseSearch(q string, loc *time.Location) (searchFilter, error) {
	var out searchFilter
	for _, tok := range strings.Fields(q) {
		if strings.EqualFold(tok, "AND") {
			continue
		}
		f, v, ok := strings.Cut(tok, ":")
		if !ok {
			continue
		}
		op := "="
		for _, o := range []string{">=", "<=", ">", "<"} {
			if rest, ok := strings.CutPrefix(v, o); ok {
				op, v = o, rest
				break
			}
		}
		v = strings.Trim(v, `'"`)
		switch f {
		case "updated_at", "created_at", "processed_at":
			t, err := parseSearchTime(v, loc)
			if err != nil {
				return nil, codedError{fmt.Sprintf("Invalid date in search query: %q", v), "BAD_REQUEST"}
			}
			out = append(out, term{field: f, op: op, t: t})
		case "test":
			out = append(out, term{field: f, op: "=", b: v == "true"})
		}
	}
	return out, nil
}

func parseSearchTime(v string, loc *time.Location) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	if t, err := time.ParseInLocation("2006-01-02", v, loc); err == nil {
		return t, nil
	}
	return time.Time{}, errBadSearch
}

func (f searchFilter) match(created, updated time.Time, test bool) bool {
	for _, t := range f {
		if t.field == "test" {
			if test != t.b {
				return false
			}
			continue
		}
		v := updated
		if t.field != "updated_at" {
			v = created
		}
		ok := false
		switch t.op {
		case ">=":
			ok = !v.Before(t.t)
		case ">":
			ok = v.After(t.t)
		case "<=":
			ok = !v.After(t.t)
		case "<":
			ok = v.Before(t.t)
		default:
			ok = v.Equal(t.t)
		}
		if !ok {
			return false
		}
	}
	return true
}
