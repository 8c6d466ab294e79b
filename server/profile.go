package server

import (
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// profileCapability is where a client asks initialize for a message
// profile: capabilities.experimental.registrySidecar.messageProfile
// ("excelmanus" or "en"). Every tools/call on the connection is then worded
// in that profile; without it the registry's own profile applies.
const profileCapability = "capabilities.experimental.registrySidecar.messageProfile"

// requestedProfile reads the profile an initialize request asks for; ok is
// false when it asks for none.
func requestedProfile(params gjson.Result) (registry.Profile, bool, error) {
	v := params.Get(profileCapability)
	if !v.Exists() || v.Type == gjson.Null {
		return "", false, nil
	}
	if v.Type != gjson.String {
		return "", false, fmt.Errorf("%w: %s must be a string", ErrInvalidParams, profileCapability)
	}
	p, err := registry.ParseProfile(v.Str)
	if err != nil {
		return "", false, fmt.Errorf("%w: %s: %w", ErrInvalidParams, profileCapability, err)
	}
	return p, true, nil
}

// initialize answers an initialize request and records the connection's
// message profile. A server answering a profile request confirms it in its
// own capabilities.experimental.registrySidecar.
func (c *conn) initialize(id string, params gjson.Result) {
	p, asked, err := requestedProfile(params)
	if err != nil {
		c.send(appendError(nil, id, CodeInvalidParams, err.Error()))
		return
	}
	var extra []byte
	if asked {
		c.mu.Lock()
		c.profile = p
		c.mu.Unlock()
		extra = append([]byte(`"experimental":{"registrySidecar":{"messageProfile":`), pyjson.AppendString(nil, string(p))...)
		extra = append(extra, "}}"...)
	}
	c.send(appendResult(nil, id, c.s.initializeResult(params, extra)))
}

// callProfile is the option that words a call in the connection's profile.
func (c *conn) callProfile() []registry.CallOption {
	c.mu.Lock()
	p := c.profile
	c.mu.Unlock()
	if p == "" {
		return nil
	}
	return []registry.CallOption{registry.WithCallProfile(p)}
}
