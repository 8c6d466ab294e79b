package tools

import (
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/colprofile"
	"golang.org/x/text/unicode/norm"
)

// The column matching of discover_file_relationships: how two headers are
// found to name the same thing (exactly, or after normalisation through a
// small table of id-like synonyms), and what the sampled values of two
// such columns say about joining them: how much their distinct values
// overlap, which side is unique, which join keeps what, and whether their
// value types agree.

const (
	// relOverlapThreshold is the least overlap_ratio a normalized match
	// needs to be reported, and a shared column to be a join key.
	relOverlapThreshold = 0.3
	// relOneRatio is the least unique_ratio that makes a side "one".
	relOneRatio = 0.9
)

// relSynonyms maps the compact form (lower case, no spaces, underscores or
// hyphens) of id-like header names, English and Chinese, to one canonical
// name. Generic names (name, 姓名, 名称, date, 日期, 时间, department, dept)
// are deliberately absent: they match only by their compact form.
var relSynonyms = func() map[string]string {
	groups := map[string][]string{
		"customer_id":   {"customerid", "custid", "customerno", "customernumber", "customercode", "clientid", "clientno", "客户id", "客户编号", "客户号", "客户代码", "客户编码"},
		"order_id":      {"orderid", "orderno", "ordernumber", "订单id", "订单编号", "订单号", "订单号码"},
		"product_id":    {"productid", "prodid", "productno", "productcode", "itemid", "产品id", "产品编号", "产品代码", "产品编码", "商品id", "商品编号", "商品编码"},
		"employee_id":   {"employeeid", "empid", "employeeno", "staffid", "staffno", "员工id", "员工编号", "工号"},
		"supplier_id":   {"supplierid", "supplierno", "vendorid", "vendorno", "供应商id", "供应商编号", "供应商代码"},
		"invoice_id":    {"invoiceid", "invoiceno", "invoicenumber", "发票id", "发票号", "发票编号", "发票号码"},
		"user_id":       {"userid", "用户id", "用户编号"},
		"department_id": {"departmentid", "deptid", "deptno", "部门id", "部门编号", "部门代码"},
		"store_id":      {"storeid", "shopid", "门店id", "门店编号", "店铺id", "店铺编号"},
		"contract_id":   {"contractid", "contractno", "合同id", "合同编号", "合同号"},
	}
	out := map[string]string{}
	for canon, names := range groups {
		for _, n := range names {
			out[n] = canon
		}
	}
	return out
}()

// relNormalize is the key two headers share when they name the same thing:
// the header in NFKC form (full-width letters as ASCII), lower case,
// without spaces, underscores or hyphens, then mapped through relSynonyms
// when it is there. A blank header gives "".
func relNormalize(h string) string {
	h = strings.ToLower(norm.NFKC.String(h))
	var b strings.Builder
	for _, r := range h {
		switch r {
		case ' ', '\t', '\n', '\r', '_', '-', '\u00a0', '\u3000':
			continue
		}
		b.WriteRune(r)
	}
	compact := b.String()
	if canon, ok := relSynonyms[compact]; ok {
		return canon
	}
	return compact
}

// relSkippedHeader reports a header that names no column: blank, or the
// "Unnamed: n" pandas gives a blank header.
func relSkippedHeader(h string) bool {
	t := strings.TrimSpace(h)
	return t == "" || strings.HasPrefix(t, "Unnamed")
}

// relSeed hashes the values of every column of the process alike, so two
// columns' sets can be intersected.
var relSeed = maphash.MakeSeed()

// relColumn is what the sample rows of one column hold: its distinct values
// (hashed by kind and value, so 1 and 1.0 are one value and 1 and "1" two),
// how many cells are not blank, and how many of each kind.
type relColumn struct {
	distinct                     map[uint64]struct{}
	nonBlank                     int
	numbers, texts, dates, bools int
}

// add counts one cell; date says the cell is a date (its value the ISO
// text). A missing cell and empty text are blank, as pandas reads them.
func (c *relColumn) add(v any, date bool) {
	var key string
	switch x := v.(type) {
	case nil:
		return
	case string:
		if x == "" {
			return
		}
		if date {
			c.dates++
			key = "d" + x
		} else {
			c.texts++
			key = "s" + x
		}
	case bool:
		c.bools++
		key = "b" + strconv.FormatBool(x)
	case int64:
		c.numbers++
		key = "n" + strconv.FormatFloat(float64(x), 'g', -1, 64)
	case float64:
		c.numbers++
		key = "n" + strconv.FormatFloat(x, 'g', -1, 64)
	default:
		return
	}
	if c.distinct == nil {
		c.distinct = map[uint64]struct{}{}
	}
	c.nonBlank++
	c.distinct[maphash.String(relSeed, key)] = struct{}{}
}

// uniqueRatio is distinct values over non-blank cells (0 for none).
func (c *relColumn) uniqueRatio() float64 {
	if c.nonBlank == 0 {
		return 0
	}
	return float64(len(c.distinct)) / float64(c.nonBlank)
}

// kind is the column's value type: number, text, date, bool, mixed (more
// than one of these) or empty (no value in the sample).
func (c *relColumn) kind() string {
	return colprofile.ColumnKind(colprofile.KindCount{N: c.numbers, Name: "number"}, colprofile.KindCount{N: c.texts, Name: "text"}, colprofile.KindCount{N: c.dates, Name: "date"}, colprofile.KindCount{N: c.bools, Name: "bool"})
}

// relOverlap is the distinct values two columns share over the distinct
// values of the one with fewer (0 when either has none).
func relOverlap(a, b *relColumn) float64 {
	small, big := a.distinct, b.distinct
	if len(big) < len(small) {
		small, big = big, small
	}
	if len(small) == 0 {
		return 0
	}
	shared := 0
	for k := range small {
		if _, ok := big[k]; ok {
			shared++
		}
	}
	return float64(shared) / float64(len(small))
}

// relCardinality names the relationship of two columns by which sides are
// "one" (unique_ratio >= relOneRatio): one_to_one, one_to_many (a unique,
// b repeats), many_to_one or many_to_many.
func relCardinality(uniqueA, uniqueB float64) string {
	oneA, oneB := uniqueA >= relOneRatio, uniqueB >= relOneRatio
	switch {
	case oneA && oneB:
		return "one_to_one"
	case oneA:
		return "one_to_many"
	case oneB:
		return "many_to_one"
	}
	return "many_to_many"
}

// relJoin is the pd.merge how= that keeps the rows that matter: the many
// side's rows with the one side looked up (right for one_to_many, left for
// many_to_one); for one_to_one inner when the keys mostly agree (overlap
// >= relOneRatio) and outer otherwise, so neither side's unmatched keys are
// lost; inner for many_to_many, whose outer join would multiply rows.
func relJoin(relationship string, overlap float64) string {
	switch relationship {
	case "one_to_many":
		return "right"
	case "many_to_one":
		return "left"
	case "one_to_one":
		if overlap >= relOneRatio {
			return "inner"
		}
		return "outer"
	}
	return "inner"
}

// relCompatible reports whether a join of columns of these value types can
// match values: the same type, or either side mixed or empty.
func relCompatible(a, b string) bool {
	return a == b || a == "mixed" || b == "mixed" || a == "empty" || b == "empty"
}

// relRound is x rounded to 4 decimals, as Python's round(x, 4) gives it.
func relRound(x float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 4, 64), 64)
	return f
}

// pyQuote is s as a Python single-quoted string literal's content.
func pyQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return "'" + r.Replace(s) + "'"
}
