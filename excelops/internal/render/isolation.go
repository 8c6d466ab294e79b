package render

import (
	"sync"
	"sync/atomic"
)

// What keeps LibreOffice off the network during render_range. Either way
// the private copy is sanitised first (sanitize.go) and the LibreOffice
// profile forbids loading linked content (profile.go).
const (
	// IsolationNetns: soffice runs in a new, empty network namespace (no
	// interface, not even loopback, is up), so it cannot reach any address.
	IsolationNetns = "netns"
	// IsolationSettings: this platform refused a network namespace; only
	// the profile settings keep LibreOffice from loading linked content.
	IsolationSettings = "settings"
)

// isolation remembers whether soffice can run in its own network
// namespace: probed once, on the first render (or Isolation call), and
// turned off for good if a start in a namespace is refused later.
type isolation struct {
	once  sync.Once
	netns atomic.Bool
	// probe reports whether a child process can be started in a new
	// network namespace here (ProbeNetns unless SetProbe replaced it).
	probe func(tmp string) bool
}

// Isolation returns how renders keep LibreOffice off the network:
// IsolationNetns when soffice runs in a new network namespace, else
// IsolationSettings (see both). The first call probes the platform.
func (l *LibreOffice) Isolation() string {
	if l.useNetns() {
		return IsolationNetns
	}
	return IsolationSettings
}

// useNetns reports whether the next soffice runs in a new network
// namespace, probing once.
func (l *LibreOffice) useNetns() bool {
	iso := &l.isolation
	iso.once.Do(func() {
		probe := iso.probe
		if probe == nil {
			probe = ProbeNetns
		}
		ok := probe(l.tmpBase)
		iso.netns.Store(ok)
		if ok {
			l.log.WithField("isolation", IsolationNetns).Info("render_range runs LibreOffice in a new network namespace")
		} else {
			l.log.WithField("isolation", IsolationSettings).Warn("render_range cannot give LibreOffice its own network namespace here (user or network namespaces refused); only LibreOffice's settings keep it from loading linked content")
		}
	})
	return iso.netns.Load()
}

// noNetns turns the namespace off after the kernel refused it for a real
// start (err), although the probe had worked.
func (l *LibreOffice) noNetns(err error) {
	l.isolation.once.Do(func() {})
	if l.isolation.netns.Swap(false) {
		l.log.WithError(err).WithField("isolation", IsolationSettings).Warn("starting LibreOffice in a new network namespace was refused; rendering without one from now on")
	}
}

// SetProbe replaces the check of whether a child can be started in a new
// network namespace (ProbeNetns), before the first render or Isolation
// call asks it: tests choose the isolation with it.
func (l *LibreOffice) SetProbe(probe func(tmp string) bool) { l.isolation.probe = probe }
