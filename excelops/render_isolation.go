package excelops

import (
	"sync"
	"sync/atomic"
)

// What keeps LibreOffice off the network during render_range. Either way
// the private copy is sanitised first (render_sanitize.go) and the
// LibreOffice profile forbids loading linked content (render_profile.go).
const (
	// IsolationNetns: soffice runs in a new, empty network namespace (no
	// interface, not even loopback, is up), so it cannot reach any address.
	IsolationNetns = "netns"
	// IsolationSettings: this platform refused a network namespace; only
	// the profile settings keep LibreOffice from loading linked content.
	IsolationSettings = "settings"
)

// renderIsolation remembers whether soffice can run in its own network
// namespace: probed once, on the first render (or RenderIsolation call),
// and turned off for good if a start in a namespace is refused later.
type renderIsolation struct {
	once  sync.Once
	netns atomic.Bool
	// probe reports whether a child process can be started in a new
	// network namespace here (probeNetns; tests replace it).
	probe func(tmp string) bool
}

// RenderIsolation returns how render_range keeps LibreOffice off the
// network: IsolationNetns when soffice runs in a new network namespace,
// else IsolationSettings (see both). The first call probes the platform.
func (s *Service) RenderIsolation() string {
	if s.useNetns() {
		return IsolationNetns
	}
	return IsolationSettings
}

// useNetns reports whether the next soffice runs in a new network
// namespace, probing once.
func (s *Service) useNetns() bool {
	iso := &s.isolation
	iso.once.Do(func() {
		probe := iso.probe
		if probe == nil {
			probe = probeNetns
		}
		ok := probe(s.tmpBase)
		iso.netns.Store(ok)
		if ok {
			s.log.WithField("isolation", IsolationNetns).Info("render_range runs LibreOffice in a new network namespace")
		} else {
			s.log.WithField("isolation", IsolationSettings).Warn("render_range cannot give LibreOffice its own network namespace here (user or network namespaces refused); only LibreOffice's settings keep it from loading linked content")
		}
	})
	return iso.netns.Load()
}

// noNetns turns the namespace off after the kernel refused it for a real
// start (err), although the probe had worked.
func (s *Service) noNetns(err error) {
	s.isolation.once.Do(func() {})
	if s.isolation.netns.Swap(false) {
		s.log.WithError(err).WithField("isolation", IsolationSettings).Warn("starting LibreOffice in a new network namespace was refused; rendering without one from now on")
	}
}
