// Package rendersafe makes the private copy of a workbook that render_range
// hands to LibreOffice unable to reach outside itself. Sanitize is a pure
// function over the package's zip bytes:
//
//   - every relationship part (*.rels) is parsed and written again from
//     what was parsed, keeping only relationships to parts inside the
//     package: a TargetMode other than Internal, a target with a scheme or a
//     drive (http:, file:, C:), a network or backslashed path, or a
//     relationship whose attributes are given twice is dropped, so no
//     external target survives whatever the original bytes looked like;
//   - relationships that pull another document in (external workbook
//     links, data connections, query tables, OLE objects and embedded
//     packages, ActiveX controls, macros) are dropped with the parts they
//     point to, and [Content_Types].xml, written again, loses their
//     overrides;
//   - the parts whose relationships lost an entry are rewritten token by
//     token: attributes naming a dropped relationship (r:link, r:embed,
//     r:id) go, and oleObjects, controls and externalReferences elements go
//     whole, so the part still opens; VML parts (legacy drawings) also lose
//     their src and href attributes, which name files without a
//     relationship;
//   - every other entry is copied raw (zip.Writer.Copy), never inflated.
//
// Sanitize reports what it left out, grouped by part and kind, naming only
// the scheme of a removed target (never the URL or path itself). Its reads
// are bounded by Limits (a zip bomb is refused before anything is
// inflated), and it never panics on any input (FuzzRenderSanitize).
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package rendersafe
