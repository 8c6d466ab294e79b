package registry

// Observer is told about every CallTool (metrics). Its methods run on the
// caller's goroutine, so they must be fast and safe for concurrent use.
type Observer interface {
	// CallStarted reports a call that begins. tool is the registered
	// tool's name, or "" when no tool of the called name is registered
	// (so that names made up by clients never become labels).
	CallStarted(tool string)
	// CallFinished reports the call's result, with the same tool as
	// CallStarted.
	CallFinished(tool string, res Result)
}

// WithObserver has obs told about every call (nil: nobody).
func WithObserver(obs Observer) Option { return func(c *config) { c.observer = obs } }

// observe tells the observer that a call of name starts and returns the
// function that reports its result.
func (r *Registry) observe(name string) func(Result) {
	obs := r.cfg.observer
	if obs == nil {
		return nil
	}
	label := ""
	if _, ok := r.lookup(name); ok {
		label = name
	}
	obs.CallStarted(label)
	return func(res Result) { obs.CallFinished(label, res) }
}
