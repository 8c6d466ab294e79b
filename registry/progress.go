package registry

import "context"

// ProgressFunc receives a tool's progress: progress so far, total (0 when
// unknown) and a short message.
type ProgressFunc func(progress, total float64, message string)

type progressKey struct{}

// ReportProgress sends a progress report to the caller of the tool running
// under ctx; it does nothing when the caller did not ask for progress.
func ReportProgress(ctx context.Context, progress, total float64, message string) {
	if f, ok := ctx.Value(progressKey{}).(ProgressFunc); ok && f != nil {
		f(progress, total, message)
	}
}

func withProgress(ctx context.Context, f ProgressFunc) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, f)
}
