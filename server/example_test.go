package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"time"

	"github.com/gorilla/websocket"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
)

// Example serves one tool, calls it over WebSocket, and shuts down.
func Example() {
	reg := registry.New()
	_ = reg.Register(registry.Tool{
		Name:        "greet",
		Description: "Say hello.",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}`),
		Func: func(_ context.Context, args json.RawMessage) (any, error) {
			var in struct{ Name string }
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return pyjson.Object{{Key: "status", Value: "success"}, {Key: "greeting", Value: "hello " + in.Name}}, nil
		},
	})
	srv := server.New(reg, server.Config{Version: "example"})

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln, 5*time.Second) }()

	ws, _, err := websocket.DefaultDialer.Dial("ws://"+ln.Addr().String()+server.PathWS, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ws.Close()
	_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`))
	_, answer, _ := ws.ReadMessage()
	fmt.Println(string(answer))

	stop()
	_, _, err = ws.ReadMessage()
	fmt.Println(err)
	fmt.Println(<-done)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"status\": \"success\", \"greeting\": \"hello Ada\"}"}],"isError":false}}
	// websocket: close 1001 (going away): server is shutting down
	// <nil>
}
