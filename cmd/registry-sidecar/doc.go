// Command registry-sidecar serves the registry's tools over WebSocket
// (JSON-RPC 2.0, MCP method names), runs one call in-process, or lists the
// tools. Run it with --help for the flags and their environment variables.
//
//	registry-sidecar --listen 127.0.0.1:0 --workspace DIR [--token-file F] [--test-tools]
//	registry-sidecar call --workspace DIR [--test-tools] TOOL 'JSON-ARGS'
//	registry-sidecar tools --format markdown|json [--test-tools]
//	registry-sidecar --version
//
// Serving prints exactly one line on stdout once it is ready,
// REGISTRY-SIDECAR|1|ws://127.0.0.1:PORT/ws, and logs JSON lines on
// stderr. SIGTERM lets in-flight calls finish within --grace, closes every
// connection with 1001 and exits 0. `call` exits 0 for success and
// fallback payloads, 3 for error payloads, 2 for usage errors.
//
// Serve and call take the spreadsheet tools' limits (excelops.Limits):
// --max-file-size and --unzip-size-limit (sizes such as 64MiB or 2GB),
// --unzip-xml-size-limit, --max-cells, --max-read-cells and
// --max-write-cells, each also settable as REGISTRY_SIDECAR_MAX_FILE_SIZE
// and so on. A workbook over a limit is refused with a MemoryError payload;
// a zero, negative or malformed limit is a usage error.
package main
