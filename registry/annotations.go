package registry

// Annotations declare what a tool does to the world around it. MCP doors
// report them as tool annotations (MCPHints); a tool without a declaration
// (nil) gets no hints, which MCP clients read as "may change and destroy
// anything, anywhere".
type Annotations struct {
	// Title is a short human name of the tool, for lists a person reads
	// (MCP title), e.g. "Write cells".
	Title string
	// ReadOnly reports a tool that changes nothing (readOnlyHint).
	ReadOnly bool
	// Destructive reports a tool that may delete or overwrite existing
	// data (destructiveHint); a changing tool that is not destructive only
	// adds. Ignored when ReadOnly is set.
	Destructive bool
	// Idempotent reports a changing tool that, called again with the same
	// arguments, changes nothing more (idempotentHint): it sets a state
	// rather than adding to it. A read-only tool is idempotent whatever
	// this says.
	Idempotent bool
	// OpenWorld reports a tool that reaches beyond its host's own data
	// (the network, other services) (openWorldHint); a tool that stays in
	// its workspace leaves it false.
	OpenWorld bool
}

// ReadOnly is the declaration of a tool that changes nothing.
func ReadOnly() *Annotations { return &Annotations{ReadOnly: true} }

// Additive is the declaration of a tool that changes things but only adds
// (never deletes or overwrites existing data).
func Additive() *Annotations { return &Annotations{} }

// Destructive is the declaration of a tool that may delete or overwrite
// existing data.
func Destructive() *Annotations { return &Annotations{Destructive: true} }

// MCPHints is a declaration as MCP tool annotations, each field the value
// of the annotation of its name; every door lists these.
type MCPHints struct {
	Title          string
	ReadOnlyHint   bool
	IdempotentHint bool
	OpenWorldHint  bool
	// DestructiveHint is nil for a read-only tool (MCP defines it only
	// for tools that change things).
	DestructiveHint *bool
}

// MCP returns the MCP tool annotations of the declaration a, nil for none.
func (a *Annotations) MCP() *MCPHints {
	if a == nil {
		return nil
	}
	h := &MCPHints{Title: a.Title, ReadOnlyHint: a.ReadOnly, IdempotentHint: a.ReadOnly || a.Idempotent, OpenWorldHint: a.OpenWorld}
	if !a.ReadOnly {
		destructive := a.Destructive
		h.DestructiveHint = &destructive
	}
	return h
}
