package main

import "fmt"

const (
	// version is the release of this binary.
	version = "0.1.0"
	// protocolVersion is the handshake protocol version the Python adapter
	// checks.
	protocolVersion = 1
	// handshakePrefix starts the one readiness line on stdout.
	handshakePrefix = "REGISTRY-SIDECAR"
)

func versionLine() string {
	return fmt.Sprintf("registry-sidecar %s protocol %d", version, protocolVersion)
}

// handshakeLine is the readiness line printed once the server listens.
func handshakeLine(wsURL string) string {
	return fmt.Sprintf("%s|%d|%s", handshakePrefix, protocolVersion, wsURL)
}
