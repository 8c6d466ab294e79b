package mcpdoor

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestConfigWithDefaults(t *testing.T) {
	cases := []struct {
		name string
		in   Config
		want Config
	}{
		{"zero takes every default", Config{}, Config{
			Name: DefaultName, Version: DefaultVersion, SessionTimeout: DefaultSessionTimeout,
			MaxRequestBytes: DefaultMaxRequestBytes, MaxLineBytes: DefaultMaxLineBytes,
			Grace: DefaultGrace, MaxConcurrentCalls: DefaultMaxConcurrentCalls,
		}},
		{"negative is unset, set fields stay", Config{
			Name: "n", Version: "1", SessionTimeout: time.Second, MaxRequestBytes: -1, MaxLineBytes: 10,
			Grace: -time.Second, MaxConcurrentCalls: 3,
		}, Config{
			Name: "n", Version: "1", SessionTimeout: time.Second, MaxRequestBytes: DefaultMaxRequestBytes,
			MaxLineBytes: 10, Grace: DefaultGrace, MaxConcurrentCalls: 3,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in.withDefaults()
			assert.NotNil(t, got.Log)
			got.Log = nil
			assert.Equal(t, tc.want, got)
		})
	}
}
