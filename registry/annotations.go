package registry

// Annotations declare what a tool does to the world around it. MCP doors
// report them as tool annotations (readOnlyHint, destructiveHint); a tool
// without a declaration (nil) gets no hints, which MCP clients read as
// "may change and destroy anything".
type Annotations struct {
	// ReadOnly reports a tool that changes nothing (readOnlyHint).
	ReadOnly bool
	// Destructive reports a tool that may delete or overwrite existing
	// data (destructiveHint); a changing tool that is not destructive only
	// adds. Ignored when ReadOnly is set.
	Destructive bool
}

// ReadOnly is the declaration of a tool that changes nothing.
func ReadOnly() *Annotations { return &Annotations{ReadOnly: true} }

// Additive is the declaration of a tool that changes things but only adds
// (never deletes or overwrites existing data).
func Additive() *Annotations { return &Annotations{} }

// Destructive is the declaration of a tool that may delete or overwrite
// existing data.
func Destructive() *Annotations { return &Annotations{Destructive: true} }
