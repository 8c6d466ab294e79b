// Package render runs LibreOffice headless to turn a workbook's first page
// into a PNG, the engine of the render_range tool: it finds soffice, caps how
// many run at once (a slot each, waited for within the call's deadline),
// starts each with a fresh profile whose settings forbid linked content and
// in a new network namespace where the platform grants one, and crops the
// page it writes to the cells. It also sanitises the copy LibreOffice opens
// (internal/rendersafe, with the errors a tool reports) and decides how a
// range is scaled onto one A4 page.
//
//	lo := render.New(render.Config{Soffice: "soffice", MaxRenders: 2, TmpBase: os.TempDir(), Log: log})
//	bin, err := lo.Path()
//	png, isolation, err := lo.ConvertToPNG(ctx, bin, "/tmp/w/render.xlsx", "/tmp/w/out", "/tmp/w")
//	pic, w, h, blank, err := render.CropPage(png)
//
// The excelops package keeps the tool (tool_render.go: the print set-up of
// a private copy, the output path inside the workspace) and the options
// (WithSoffice, WithMaxRenders). ARCHITECTURE.md at the repository root
// places this package in the package map.
package render
