package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/stretchr/testify/assert"
)

func TestLinkTarget(t *testing.T) {
	for _, c := range []struct{ from, target, want string }{
		{"a.xlsx", "prices.xlsx", "prices.xlsx"},
		{"sub/a.xlsx", "prices.xlsx", "sub/prices.xlsx"},
		{"sub/a.xlsx", "../prices.xlsx", "prices.xlsx"},
		{"sub/a.xlsx", `data\prices.xlsx`, "sub/data/prices.xlsx"},
		{"a.xlsx", "C:/Users/x/prices.xlsx", ""},
		{"a.xlsx", "/abs/prices.xlsx", ""},
		{"a.xlsx", "https://host/prices.xlsx", ""},
	} {
		assert.Equal(t, c.want, linkTarget(c.from, c.target), "%s -> %s", c.from, c.target)
	}
}

// TestWorkbookLinks: each file's links listed in order, the analyzed file
// a link names (matched ignoring case, never the file itself), and the
// pairs so linked.
func TestWorkbookLinks(t *testing.T) {
	sc := &relScan{files: []*relFile{
		{shown: "sub/a.xlsx", links: []string{"../Prices.xlsx", "", "C:/x/y.xlsx", "a.xlsx"}},
		{shown: "prices.xlsx"},
	}}
	list, pairs := sc.workbookLinks()
	got := []string{}
	for _, l := range list {
		s, err := pyjson.MarshalString(l)
		assert.NoError(t, err)
		got = append(got, s)
	}
	assert.Equal(t, []string{
		`{"file": "sub/a.xlsx", "links_to": "../Prices.xlsx", "analyzed_file": "prices.xlsx"}`,
		`{"file": "sub/a.xlsx", "links_to": "C:/x/y.xlsx", "analyzed_file": null}`,
		`{"file": "sub/a.xlsx", "links_to": "a.xlsx", "analyzed_file": null}`,
	}, got)
	assert.Equal(t, [][2]int{{0, 1}}, pairs)
}
