package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/excelops"
)

// TestToolsMarkdownSaysEachToolsPath: docs/TOOLS.md explains the path
// words once and gives every spreadsheet tool the Path line its access
// declaration generates.
func TestToolsMarkdownSaysEachToolsPath(t *testing.T) {
	var md bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"tools", "--format", "markdown"}, &md, io.Discard))
	text := md.String()
	assert.Contains(t, text, excelops.PathLegend())
	sections := strings.Split(text, "\n## `")[1:]
	require.NotEmpty(t, sections)
	for _, sec := range sections {
		name := sec[:strings.IndexByte(sec, '`')]
		assert.Regexp(t, "\nPath: `[a-z_]+` \\*\\*(stream|styles|cells|structure)\\*\\*", sec, name)
	}
}
