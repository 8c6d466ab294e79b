package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

// errBlankToken refuses a token that is empty or only whitespace, from any
// source: it would either be taken for "no token" or never match a client.
var errBlankToken = errors.New("the token is empty or only whitespace (leave it unset to serve loopback clients only, without a token)")

// tokenValue is the one rule for a token from any source (--token, its
// environment variable, --token-file): surrounding whitespace (a file's
// final newline, say) is not part of it, as it is not part of the bearer
// token a client sends, and what is left must not be empty.
func tokenValue(raw string) (string, error) {
	t := strings.TrimSpace(raw)
	if t == "" {
		return "", errBlankToken
	}
	return t, nil
}

// tokenFlags defines --token and --token-file; --token (and so its
// environment variable) is checked by tokenValue as it is set.
func (o *options) tokenFlags(fs *flag.FlagSet) {
	fs.Func("token", "bearer `token` clients must send (prefer --token-file or the env var)", func(s string) error {
		t, err := tokenValue(s)
		o.token = t
		return err
	})
	fs.StringVar(&o.tokenFile, "token-file", "", "file holding the bearer token")
}

// resolveToken returns the token to require, "" for none: --token's value
// or --token-file's content (not both).
func (o *options) resolveToken() (string, error) {
	if o.token != "" && o.tokenFile != "" {
		return "", fmt.Errorf("%w: give --token or --token-file, not both", errUsage)
	}
	if o.tokenFile == "" {
		return o.token, nil
	}
	b, err := os.ReadFile(o.tokenFile)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	t, err := tokenValue(string(b))
	if err != nil {
		return "", fmt.Errorf("%w: token file %s: %w", errUsage, o.tokenFile, err)
	}
	return t, nil
}
