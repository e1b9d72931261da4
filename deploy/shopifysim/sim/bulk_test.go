package sim

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestBulkJSONLWithParentIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	tok := e.install(testShop, "read_orders")
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 3 {
		o := simpleOrder(base.Add(time.Duration(i) * time.Hour))
		o.Lines = append(o.Lines, LineSpec{Title: "Scarf", Quantity: 2, UnitPrice: 1500, Tax: 210})
		o.Shipping = 500
		if _, err := e.s.AddOrder(testShop, o); err != nil {
			t.Fatal(err)
		}
	}
	inner := `{ orders(query: "test:false") { edges { node { id name
	  lineItems { edges { node { id sku quantity } } }
	  agreements { edges { node { id reason happenedAt
	    sales { edges { node { __typename id lineType totalAmount { shopMoney { amount } } ... on ProductSale { lineItem { id } } } } } } } } } } } }`
	run := `mutation($q: String!) { bulkOperationRunQuery(query: $q) { bulkOperation { id status } userErrors { field message } } }`
	d := e.gql(testShop, tok, run, map[string]any{"q": inner})
	id, _ := dig(d, "bulkOperationRunQuery", "bulkOperation", "id").(string)
	if id == "" || dig(d, "bulkOperationRunQuery", "bulkOperation", "status") != "CREATED" {
		t.Fatalf("run: %v", d)
	}
	var op any
	waitFor(t, "bulk completion", func() bool {
		d := e.gql(testShop, tok, `query($id: ID!) { bulkOperation(id: $id) { id status errorCode objectCount fileSize url partialDataUrl completedAt } currentBulkOperation { id } }`, map[string]any{"id": id})
		op = d["bulkOperation"]
		return dig(op, "status") == "COMPLETED"
	})
	// 3 orders + 6 line items + 3 agreements + 3 × 3 sales
	if dig(op, "objectCount") != "21" || dig(op, "url") == nil {
		t.Fatalf("op: %v", op)
	}
	resp, err := http.Get(dig(op, "url").(string))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("download: %v %v", err, resp)
	}
	defer resp.Body.Close()
	seen := map[string]string{} // id → __typename-ish kind
	var lines []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		lines = append(lines, m)
		id, _ := m["id"].(string)
		if p, ok := m["__parentId"].(string); ok {
			if seen[p] == "" {
				t.Fatalf("child before its parent: %v", m)
			}
			switch {
			case strings.Contains(id, "/LineItem/"), strings.Contains(id, "/SalesAgreement/"):
				if !strings.Contains(p, "/Order/") {
					t.Fatalf("bad parent %v", m)
				}
			case strings.Contains(id, "/Sale/"):
				if !strings.Contains(p, "/SalesAgreement/") {
					t.Fatalf("bad parent %v", m)
				}
			}
		} else if !strings.Contains(id, "/Order/") {
			t.Fatalf("root line is not an order: %v", m)
		}
		if _, nested := m["lineItems"]; nested {
			t.Fatalf("connection left inline: %v", m)
		}
		seen[id] = "y"
	}
	if len(lines) != 21 {
		t.Fatalf("%d lines", len(lines))
	}
	var product map[string]any
	for _, l := range lines {
		if l["__typename"] == "ProductSale" {
			product = l
			break
		}
	}
	if product == nil || dig(product, "lineItem", "id") == nil || dig(product, "totalAmount", "shopMoney", "amount") != "21.40" {
		t.Fatalf("product sale inline objects: %v", product)
	}
}

func TestBulkLimitsFailureAndCancel(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true, BulkDelay: 200 * time.Millisecond})
	tok := e.install(testShop, "read_orders")
	run := `mutation($q: String!) { bulkOperationRunQuery(query: $q) { bulkOperation { id status } userErrors { field message } } }`
	for q, want := range map[string]string{
		`{ orders { edges { node { agreements { edges { node { sales { edges { node { id ... on ProductSale { lineItem { id } } } } } } } } } } } }`:                                                                                                                          "",
		`{ orders { edges { node { id lineItems { edges { node { id } } } agreements { edges { node { id sales { edges { node { id } } } } } } } } } products { edges { node { id } } } customers { edges { node { id } } } webhookSubscriptions { edges { node { id } } } }`: "Bulk queries cannot contain more than 5 connections.",
		`{ shop { name } }`:   "Bulk queries must contain at least one connection.",
		`{ orders { nope } }`: "Invalid bulk query",
	} {
		d := e.gql(testShop, tok, run, map[string]any{"q": q})
		msg, _ := dig(d, "bulkOperationRunQuery", "userErrors", 0, "message").(string)
		if (want == "" && msg != "") || !strings.HasPrefix(msg, want) {
			t.Fatalf("query %s: got %q want %q", q, msg, want)
		}
	}
	_ = e.s.InjectFault(testShop, Fault{Kind: "bulk-fail"})
	d := e.gql(testShop, tok, run, map[string]any{"q": `{ orders { edges { node { id } } } }`})
	failID := dig(d, "bulkOperationRunQuery", "bulkOperation", "id")
	d = e.gql(testShop, tok, run, map[string]any{"q": `{ products { edges { node { id } } } }`})
	cancelID := dig(d, "bulkOperationRunQuery", "bulkOperation", "id")
	d = e.gql(testShop, tok, `mutation($id: ID!) { bulkOperationCancel(id: $id) { bulkOperation { status } userErrors { message } } }`, map[string]any{"id": cancelID})
	if dig(d, "bulkOperationCancel", "bulkOperation", "status") != "CANCELING" {
		t.Fatalf("cancel: %v", d)
	}
	status := func(id any) any {
		return dig(e.gql(testShop, tok, `query($id: ID!) { bulkOperation(id: $id) { status errorCode url } }`, map[string]any{"id": id}), "bulkOperation")
	}
	waitFor(t, "bulk end", func() bool { return dig(status(cancelID), "status") == "CANCELED" })
	if st := status(failID); dig(st, "status") != "FAILED" || dig(st, "errorCode") != "INTERNAL_SERVER_ERROR" || dig(st, "url") != nil {
		t.Fatalf("failed op: %v", st)
	}
}
