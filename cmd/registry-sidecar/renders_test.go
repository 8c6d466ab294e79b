package main

import (
	"flag"
	"fmt"
	"io"
	"testing"

	"github.com/sirupsen/logrus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/excelops"
)

// TestMaxRendersFlag: --max-renders (or its environment variable) reaches
// the spreadsheet tools, defaults to excelops', and must be positive.
func TestMaxRendersFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  string
		want int
	}{
		{nil, "", excelops.DefaultMaxRenders},
		{[]string{"--max-renders", "5"}, "", 5},
		{nil, "3", 3},
		{[]string{"--max-renders", "1"}, "3", 1},
	} {
		t.Run(fmt.Sprint(tc.args, tc.env), func(t *testing.T) {
			if tc.env != "" {
				t.Setenv(envName("max-renders"), tc.env)
			}
			var o options
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			o.registryFlags(fs)
			require.NoError(t, parse(fs, append([]string{"--workspace", t.TempDir()}, tc.args...), io.Discard, io.Discard))
			log := logrus.New()
			log.SetOutput(io.Discard)
			_, svc, err := o.buildRegistry(log, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.want, svc.MaxRenders())
			closeService(svc, log)
		})
	}
	var o options
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	o.registryFlags(fs)
	assert.ErrorIs(t, parse(fs, []string{"--max-renders", "0"}, io.Discard, io.Discard), errUsage)
}
