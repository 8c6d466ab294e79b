// Command registry-sidecar serves the registry's tools over WebSocket
// (JSON-RPC 2.0, MCP method names) and MCP streamable HTTP, or over MCP
// stdio, runs one call in-process, or lists the tools. Run it with --help
// for the flags and their environment variables.
//
//	registry-sidecar [serve] --listen 127.0.0.1:0 --workspace DIR [--mcp-listen ADDR] [--token-file F] [--test-tools]
//	registry-sidecar mcp --workspace DIR [--test-tools]
//	registry-sidecar call --workspace DIR [--test-tools] TOOL ['JSON-ARGS' | -]
//	registry-sidecar tools --format markdown|json [--test-tools]
//	registry-sidecar --version
//
// Serving prints exactly one line on stdout once it is ready,
// REGISTRY-SIDECAR|1|ws://127.0.0.1:PORT/ws, and logs JSON lines on
// stderr. SIGTERM lets in-flight calls finish within --grace, closes every
// connection with 1001 and exits 0. The "listening" log line names the
// workspace, the doors served and their URLs. --mcp-listen also serves MCP
// streamable HTTP at /mcp (package mcpdoor); every HTTP listener serves
// /ws, /mcp, /healthz, /readyz and /metrics (Prometheus), every path behind
// one Host and Origin rule (server.RequestPolicy): without a token only
// loopback Host headers and loopback or absent Origins are served. A token
// (--token, --token-file or $REGISTRY_SIDECAR_TOKEN) that is empty or only
// whitespace is a usage error. `mcp` serves MCP
// over stdin/stdout (stdout carries protocol messages only). --call-timeout
// bounds every tool call on every door. `call` reads the arguments from
// stdin when JSON-ARGS is -, and exits 0 for success and fallback
// payloads, 3 for error payloads, 2 for usage errors, 1 when the tools
// cannot start.
//
// Serve and call take the spreadsheet tools' limits (excelops.Limits):
// --max-file-size and --unzip-size-limit (sizes such as 64MiB or 2GB),
// --unzip-xml-size-limit, --max-cells, --max-read-cells and
// --max-write-cells, each also settable as REGISTRY_SIDECAR_MAX_FILE_SIZE
// and so on. A workbook over a limit is refused with a MemoryError payload;
// a zero, negative or malformed limit is a usage error.
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package main
