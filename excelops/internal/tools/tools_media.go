package tools

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
)

// mediaTools are the tools that put pictures and summaries into a
// workbook and the one that renders a range as a picture: insert_image,
// create_pivot_table and render_range, each declared in its own file.
func mediaTools() []toolSpec {
	return []toolSpec{insertImageTool, createPivotTableTool, renderRangeTool}
}

// renderAccess is render_range's declaration: the workbook's bytes are
// copied under the shared lock (a streamed read, never parsed in place), the
// copy is rendered with no lock held, and the PNG at output_path is written,
// replacing a file that is there (the same call again writes the same PNG).
func renderAccess() access.Access {
	return access.Access{
		Files:       []access.FileUse{{Arg: "file_path", Touch: access.TouchStream}},
		Output:      "output_path",
		Destructive: true,
		Idempotent:  true,
	}
}
