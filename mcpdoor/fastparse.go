package mcpdoor

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/callmeta"
)

// parseFastCall reads body as a single tools/call request with only the
// members the fast path knows; ok is false for anything else.
func parseFastCall(body []byte) (c fastCall, ok bool) {
	if !gjson.ValidBytes(body) {
		return c, false
	}
	root := gjson.ParseBytes(body)
	var params gjson.Result
	ok = members(root, func(key string, v gjson.Result) bool {
		switch key {
		case "jsonrpc":
			return v.Raw == `"2.0"`
		case "method":
			return v.Raw == `"tools/call"`
		case "id":
			if !canonicalID(v) {
				return false
			}
			c.id = []byte(v.Raw)
			return true
		case "params":
			params = v
			return true
		}
		return false
	}, "jsonrpc", "method", "id", "params")
	if !ok {
		return c, false
	}
	var meta gjson.Result
	ok = members(params, func(key string, v gjson.Result) bool {
		switch key {
		case "name":
			c.name = v.Str
			return plainString(v) && v.Str != ""
		case "arguments":
			c.args = []byte(v.Raw)
			return v.IsObject()
		case "_meta":
			meta = v
			return true
		}
		return false
	}, "name", "_meta")
	if !ok {
		return c, false
	}
	ok = members(meta, func(key string, v gjson.Result) bool {
		switch key {
		case metaProtocolVersion:
			return v.Raw == `"`+protocolStateless+`"`
		case metaClientInfo:
			return clientInfo(v)
		case metaClientCapabilities:
			return clientCapabilities(v)
		case callmeta.KeyToolScope:
			// Plain strings only: the SDK path would read the same names.
			return v.IsArray() && !slices.ContainsFunc(v.Array(), func(n gjson.Result) bool { return !plainString(n) })
		case callmeta.KeyTimeoutMs:
			return v.Type == gjson.Number && plainNumber(v.Raw)
		case callmeta.KeyNullAsOmitted:
			return v.IsBool()
		}
		return false
	}, metaProtocolVersion, metaClientCapabilities)
	if !ok {
		return c, false
	}
	ext, err := callmeta.FromJSON(meta)
	if err != nil {
		return c, false // the SDK path answers the -32602
	}
	c.opts = ext.Options(nil)
	return c, true
}

// members calls each for every member of the object obj and reports
// whether obj is an object whose keys are written without escapes, each
// at most once, each accepted by each, the required ones all present.
func members(obj gjson.Result, each func(key string, v gjson.Result) bool, required ...string) bool {
	if !obj.IsObject() {
		return false
	}
	// The objects taken have a handful of members: a list beats a map.
	var buf [maxMembers]string
	seen := buf[:0]
	ok := true
	obj.ForEach(func(k, v gjson.Result) bool {
		if len(seen) == maxMembers || !plainString(k) || slices.Contains(seen, k.Str) || !each(k.Str, v) {
			ok = false
			return false
		}
		seen = append(seen, k.Str)
		return true
	})
	for _, k := range required {
		ok = ok && slices.Contains(seen, k)
	}
	return ok
}

// maxMembers is the most members an object of a call the fast path takes
// can have (_meta: its three keys and the two extensions).
const maxMembers = 8

// plainString reports whether v is a JSON string written without escapes
// or control characters, in valid UTF-8: its raw form and its value agree.
func plainString(v gjson.Result) bool {
	if v.Type != gjson.String || len(v.Raw) != len(v.Str)+2 || !utf8.ValidString(v.Str) {
		return false
	}
	for i := 0; i < len(v.Str); i++ {
		if c := v.Str[i]; c < 0x20 || c == '\\' || c == '"' || c == 0x7f {
			return false
		}
	}
	return true
}

// canonicalID reports whether v is an id the SDK writes back as it came:
// an integer of at most 15 digits without sign, leading zero, fraction or
// exponent, or a plain string of printable ASCII.
func canonicalID(v gjson.Result) bool {
	switch v.Type {
	case gjson.Number:
		return len(v.Raw) <= 15 && digits(v.Raw) && (v.Raw == "0" || v.Raw[0] != '0')
	case gjson.String:
		if !plainString(v) {
			return false
		}
		for i := 0; i < len(v.Str); i++ {
			if v.Str[i] >= utf8.RuneSelf {
				return false
			}
		}
		return true
	}
	return false
}

// plainNumber reports whether raw is digits, with at most one fraction
// of digits, at most 15 digits in all: a number every decoder reads alike.
func plainNumber(raw string) bool {
	whole, frac, hasFrac := strings.Cut(raw, ".")
	return len(raw) <= 16 && digits(whole) && (!hasFrac || digits(frac))
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// clientInfo reports whether v is an Implementation of plain strings:
// name and version, title optional.
func clientInfo(v gjson.Result) bool {
	return members(v, func(key string, s gjson.Result) bool {
		return (key == "name" || key == "version" || key == "title") && plainString(s)
	}, "name", "version")
}

// clientCapabilities reports whether v is {} or holds only
// roots: {listChanged: bool}, sampling: {} and elicitation: {}.
func clientCapabilities(v gjson.Result) bool {
	return members(v, func(key string, c gjson.Result) bool {
		switch key {
		case "roots":
			return members(c, func(k string, b gjson.Result) bool {
				return k == "listChanged" && (b.Type == gjson.True || b.Type == gjson.False)
			})
		case "sampling", "elicitation":
			return c.Raw == "{}"
		}
		return false
	})
}
