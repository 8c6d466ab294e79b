package server

import (
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/stretchr/testify/assert"
)

func TestConfigWithDefaults(t *testing.T) {
	cases := []struct {
		name string
		in   Config
		want func(c Config) bool
	}{
		{"zero takes every default", Config{}, func(c Config) bool {
			return c.ReadLimit == DefaultReadLimit && c.MaxConcurrentCalls == DefaultMaxConcurrentCalls &&
				c.OutboundQueue == DefaultOutboundQueue && c.WriteTimeout == DefaultWriteTimeout &&
				c.PingInterval == DefaultPingInterval && c.PongWait == DefaultPongWait &&
				c.MaxConnections == DefaultMaxConnections && c.Name == DefaultName &&
				c.Version == DefaultVersion && c.Log != nil
		}},
		{"negative is unset", Config{ReadLimit: -1, WriteTimeout: -time.Second}, func(c Config) bool {
			return c.ReadLimit == DefaultReadLimit && c.WriteTimeout == DefaultWriteTimeout
		}},
		{"set fields stay", Config{ReadLimit: 10, Name: "n", Version: "1"}, func(c Config) bool {
			return c.ReadLimit == 10 && c.Name == "n" && c.Version == "1"
		}},
		{"pong wait outlasts the ping", Config{PingInterval: time.Minute, PongWait: time.Second}, func(c Config) bool {
			return c.PongWait == 150*time.Second
		}},
		{"pong wait default outlasts a long ping", Config{PingInterval: time.Hour}, func(c Config) bool {
			return c.PongWait == 150*time.Minute
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in.withDefaults()
			assert.True(t, tc.want(got), "%+v", got)
		})
	}
	own := logrus.New()
	assert.Same(t, own, Config{Log: own}.withDefaults().Log)
}
