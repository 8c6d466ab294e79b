// The official TypeScript MCP SDK client (@modelcontextprotocol/sdk, run by
// node) against registry-sidecar's stdio door (`registry-sidecar mcp`) and its
// streamable HTTP door (--mcp-listen): list the tools with their annotations,
// run a spreadsheet tool, get an error payload, cancel a slow test tool (the
// sidecar then logs the call TOOL_CANCELLED: the tool's context ended).
//
// Run by `make test` (npm ci && REGISTRY_SIDECAR_BIN=... node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const BIN = process.env.REGISTRY_SIDECAR_BIN;
const WAIT_MS = 15000; // how long one step may take before the test fails

// Logs collects the sidecar's JSON log lines from a stderr stream.
class Logs {
  constructor(stream) {
    this.lines = [];
    this.waiters = [];
    createInterface({ input: stream }).on('line', (raw) => {
      let line;
      try { line = JSON.parse(raw); } catch { return; }
      this.lines.push(line);
      this.waiters = this.waiters.filter((w) => !w(line));
    });
  }

  // waitFor resolves with the first line whose fields include fields.
  waitFor(fields) {
    const match = (l) => Object.entries(fields).every(([k, v]) => JSON.stringify(l[k]) === JSON.stringify(v));
    const seen = this.lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no log line with ${JSON.stringify(fields)}`)), WAIT_MS);
      this.waiters.push((l) => { if (!match(l)) return false; clearTimeout(timer); resolve(l); return true; });
    });
  }
}

function workspace() {
  return join(mkdtempSync(join(tmpdir(), 'rs-ts-')), 'ws');
}

function text(result) {
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  return result.content[0].text;
}

async function exercise(client, logs) {
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  for (const name of ['write_cells', 'read_excel', 'delete_sheet', 'slow']) assert.ok(byName[name], name);
  assert.equal(byName.read_excel.annotations.readOnlyHint, true);
  assert.equal(byName.delete_sheet.annotations.destructiveHint, true);
  assert.equal(byName.insert_rows.annotations.destructiveHint, false);

  const wrote = await client.callTool({ name: 'write_cells', arguments: { file_path: 'ts.xlsx', cell: 'A1', value: 7.5, create: true } });
  assert.equal(wrote.isError ?? false, false, text(wrote));
  const read = await client.callTool({ name: 'read_excel', arguments: { file_path: 'ts.xlsx', range: 'A1' } });
  assert.deepEqual(JSON.parse(text(read)).values, [[7.5]]);

  const missing = await client.callTool({ name: 'read_excel', arguments: { file_path: 'missing.xlsx' } });
  assert.equal(missing.isError, true);
  const payload = JSON.parse(text(missing));
  assert.equal(payload.error_code, 'TOOL_EXECUTION_ERROR');
  assert.equal(payload.exception, 'FileNotFoundError');

  // Cancel the slow tool once it reported that it started.
  const abort = new AbortController();
  let started;
  const startedP = new Promise((resolve) => { started = resolve; });
  const call = client.callTool({ name: 'slow', arguments: {} }, undefined, {
    signal: abort.signal,
    onprogress: () => started(),
    timeout: 10 * 60 * 1000,
  });
  await startedP;
  abort.abort('test');
  await assert.rejects(call);
  await logs.waitFor({ msg: 'call', tool: 'slow', error_code: 'TOOL_CANCELLED' });

  const after = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
  assert.equal(text(after), '{"status": "success", "sum": 3}');
}

test('stdio door', { timeout: 60000 }, async () => {
  assert.ok(BIN, 'set REGISTRY_SIDECAR_BIN');
  const transport = new StdioClientTransport({ command: BIN, args: ['mcp', '--workspace', workspace(), '--test-tools'], stderr: 'pipe' });
  const logs = new Logs(transport.stderr);
  const client = new Client({ name: 'ts-interop', version: '1.0.0' });
  await client.connect(transport);
  try {
    assert.equal(client.getServerVersion().name, 'registry-sidecar');
    await exercise(client, logs);
  } finally {
    await client.close();
  }
});

test('streamable HTTP door', { timeout: 60000 }, async () => {
  assert.ok(BIN, 'set REGISTRY_SIDECAR_BIN');
  const proc = spawn(BIN, ['--listen', '127.0.0.1:0', '--mcp-listen', '127.0.0.1:0', '--workspace', workspace(), '--test-tools'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const logs = new Logs(proc.stderr);
  try {
    const listening = await logs.waitFor({ msg: 'listening' });
    assert.deepEqual(listening.doors, ['ws', 'http']);
    const client = new Client({ name: 'ts-interop', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.mcp_url)));
    try {
      await exercise(client, logs);
    } finally {
      await client.close();
    }
  } finally {
    proc.kill('SIGTERM');
    const { code } = await exited;
    assert.equal(code, 0, 'the sidecar exits 0 after SIGTERM');
  }
});
