package tools

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Markers around the README's table comparing our tools with the peers'.
const (
	readmeTableStart = "<!-- tool-comparison:start -->"
	readmeTableEnd   = "<!-- tool-comparison:end -->"
)

// readmeOursColumn returns the tool names (in backquotes) of the "ours"
// column of the README's comparison table, with the rows they sit in.
func readmeOursColumn(t *testing.T, readme string) map[string][]string {
	t.Helper()
	start := strings.Index(readme, readmeTableStart)
	end := strings.Index(readme, readmeTableEnd)
	require.True(t, start >= 0 && end > start, "README.md lost the %s ... %s markers around the tool comparison", readmeTableStart, readmeTableEnd)
	lines := strings.Split(strings.TrimSpace(readme[start+len(readmeTableStart):end]), "\n")
	require.GreaterOrEqual(t, len(lines), 3, "the comparison table has a header, a separator and rows")
	header := splitRow(lines[0])
	require.GreaterOrEqual(t, len(header), 2)
	require.Equal(t, "ours", header[1], "the second column of the comparison table is ours")
	name := regexp.MustCompile("`([^`]+)`")
	out := map[string][]string{}
	for _, line := range lines[2:] {
		cells := splitRow(line)
		require.GreaterOrEqual(t, len(cells), 2, "row %q", line)
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			out[m[1]] = append(out[m[1]], cells[0])
		}
	}
	return out
}

// splitRow splits a Markdown table row into its trimmed cells.
func splitRow(line string) []string {
	parts := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// TestReadmeToolTableMatchesRegisteredTools keeps the README's comparison
// with the peer servers honest: every registered tool appears in the
// "ours" column, and nothing appears there that is not registered.
func TestReadmeToolTableMatchesRegisteredTools(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	require.NoError(t, err)
	claimed := readmeOursColumn(t, string(raw))
	e := newEnv(t)
	registered := map[string]bool{}
	for _, tool := range e.reg.Tools() {
		registered[tool.Name] = true
		assert.Contains(t, claimed, tool.Name, "tool %q is registered but missing from the \"ours\" column of README.md's comparison table: add it to the row of what it does (or a new row)", tool.Name)
	}
	var bogus []string
	for name := range claimed {
		if !registered[name] {
			bogus = append(bogus, name)
		}
	}
	sort.Strings(bogus)
	assert.Empty(t, bogus, "README.md's comparison table claims tools that are not registered")
}

func TestReadmeOursColumnParsing(t *testing.T) {
	readme := "intro\n" + readmeTableStart + "\n| What | ours | peer |\n|---|---|---|\n| Read | `read_excel` | `read_range` |\n| Rows | `insert_rows`, `insert_columns` | — |\n| Clear | — | `clear_range` |\n" + readmeTableEnd + "\n"
	got := readmeOursColumn(t, readme)
	assert.Equal(t, map[string][]string{"read_excel": {"Read"}, "insert_rows": {"Rows"}, "insert_columns": {"Rows"}}, got)
}
