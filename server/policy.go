package server

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Reasons RequestPolicy.Check gives for a refusal; each is the whole text
// of the 403 answer.
var (
	// ErrHostNotAllowed refuses a request whose Host header does not name
	// a loopback host while no token is configured (DNS rebinding: a web
	// page's own name pointed at 127.0.0.1).
	ErrHostNotAllowed = errors.New("host not allowed: without a token only loopback hosts (localhost, 127.0.0.1, [::1]) are served")
	// ErrOriginNotAllowed refuses a request from a browser Origin the
	// policy does not accept (a web page the user visits).
	ErrOriginNotAllowed = errors.New("origin not allowed")
)

// RequestPolicy decides which HTTP requests a Server serves at all, before
// any path is routed (/ws, /mcp, /metrics, /healthz, /readyz and every
// other path alike). It guards against web pages in the user's browser,
// which can reach loopback ports.
//
// Without a token the Host header must name a loopback host (LoopbackHost)
// and an Origin, when present, must be a loopback one too: a page whose
// domain was rebound to 127.0.0.1 sends its own name in both.
//
// With a token (which such a page does not know) any Host is served, and
// an Origin must be one of AllowedOrigins, the request's own host, or a
// loopback origin on a request to a loopback host. A request without
// Origin (every non-browser client) passes the Origin rules in both modes.
// The token itself is checked after the policy, by the paths that need it.
type RequestPolicy struct {
	// Token is whether a bearer token is configured.
	Token bool
	// AllowedOrigins are Origin values accepted besides same-host and
	// loopback ones, compared without regard to case; only with a token.
	AllowedOrigins []string
}

// Check returns nil when r may be served, else ErrHostNotAllowed or
// ErrOriginNotAllowed. Every Origin header r carries must pass.
func (p RequestPolicy) Check(r *http.Request) error {
	loopbackHost := LoopbackHost(r.Host)
	if !p.Token && !loopbackHost {
		return ErrHostNotAllowed
	}
	for _, origin := range r.Header.Values("Origin") {
		if !p.originAllowed(origin, r.Host, loopbackHost) {
			return ErrOriginNotAllowed
		}
	}
	return nil
}

// originAllowed applies the Origin rules to one Origin value of a request
// to host.
func (p RequestPolicy) originAllowed(origin, host string, loopbackHost bool) bool {
	if origin == "" {
		return true
	}
	if p.Token {
		for _, o := range p.AllowedOrigins {
			if strings.EqualFold(o, origin) {
				return true
			}
		}
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false // "null" (sandboxed frames, file pages) among others
	}
	if strings.EqualFold(u.Host, host) {
		return true // same host: loopback itself when no token is set
	}
	return loopbackHost && loopbackName(u.Hostname())
}

// LoopbackHost reports whether hostport, a Host header or a listen address
// (host, host:port, [v6] or [v6]:port; the port, when present, in digits),
// names a loopback host: "localhost" (any case), an address in
// 127.0.0.0/8, or ::1 (an IPv4-mapped loopback address too). Other names
// are not loopback, "localhost.evil.com" and "127.0.0.1.nip.io" included:
// DNS may point them anywhere.
func LoopbackHost(hostport string) bool {
	host := hostport
	if h, port, err := net.SplitHostPort(hostport); err == nil {
		if strings.Trim(port, "0123456789") != "" {
			return false
		}
		host = h
	} else if len(host) > 2 && host[0] == '[' && host[len(host)-1] == ']' {
		host = host[1 : len(host)-1]
	}
	return loopbackName(host)
}

// loopbackName reports whether host (no port, no brackets) is "localhost"
// or a loopback IP address literal (no zone).
func loopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
