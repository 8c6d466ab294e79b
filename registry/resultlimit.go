package registry

import "context"

type resultLimitKey struct{}

// ResultLimit returns the cap, in code points, that the registry applies to
// the result text of the tool running under ctx (see Tool.MaxResultChars),
// and false when the result is not capped. A tool that pages its output
// sizes each page to fit it, so truncation never cuts a page short.
func ResultLimit(ctx context.Context) (int, bool) {
	n, ok := ctx.Value(resultLimitKey{}).(int)
	if !ok || n <= 0 {
		return 0, false
	}
	return n, true
}

// WithResultLimit returns ctx carrying the result cap limit, as CallTool
// sets it for the tool it runs; a tool called directly (a test, another
// tool) may set it itself. limit <= 0 means no cap.
func WithResultLimit(ctx context.Context, limit int) context.Context {
	return context.WithValue(ctx, resultLimitKey{}, limit)
}
