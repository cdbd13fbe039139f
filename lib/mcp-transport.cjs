'use strict';
// The MCP server's stdio transport: newline-delimited JSON-RPC, like the SDK's
// `StdioServerTransport`, but with a limit per message instead of per read buffer. A message over
// the limit is skipped (never held whole in memory) and answered with JSON-RPC error -32600
// carrying its id when the id can be read from the message's start or end (else null); serving
// goes on. A line that is not a JSON-RPC message is reported through `onerror`, as the SDK does.

const { requirePeer } = require('./peer.cjs');

const SDK = { peer: '@modelcontextprotocol/sdk', range: require('../package.json').peerDependencies['@modelcontextprotocol/sdk'], entry: 'edit-engine/mcp', what: 'the MCP SDK' };
const { deserializeMessage, serializeMessage } = requirePeer('@modelcontextprotocol/sdk/shared/stdio.js', SDK);

/** Bytes of an oversized message's start and end kept to find its id. */
const ID_WINDOW = 64 * 1024;

/** JSON-RPC's "Invalid Request" code. */
const INVALID_REQUEST = -32600;

const ID_VALUE = String.raw`(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")`;
/** An id among the leading string-valued members (`{"jsonrpc":"2.0","id":7,...`). */
const LEADING_ID = new RegExp(String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*${ID_VALUE}`);
/** An id as the object's last member (`...,"id":7}`). */
const TRAILING_ID = new RegExp(String.raw`,\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/** The id of a message seen only by its start `head` and end `tail`, or null. */
function idOf(head, tail) {
  const found = LEADING_ID.exec(head) ?? TRAILING_ID.exec(tail);
  if (!found) return null;
  try {
    return JSON.parse(found[1]);
  } catch {
    return null;
  }
}

class LimitedStdioTransport {
  /** `maxMessageBytes`: the largest message (one line, without its newline) that is read. */
  constructor(maxMessageBytes, stdin = process.stdin, stdout = process.stdout) {
    this.maxMessageBytes = maxMessageBytes;
    this._stdin = stdin;
    this._stdout = stdout;
    this._chunks = [];
    this._size = 0;
    this._skipping = null; // { size, head, tail } while an oversized message is being skipped
    this._ondata = (chunk) => this._receive(chunk);
    this._onerror = (error) => this.onerror?.(error);
  }

  async start() {
    this._stdin.on('data', this._ondata);
    this._stdin.on('error', this._onerror);
  }

  /** Splits `chunk` at newlines; each finished line is one message. */
  _receive(chunk) {
    let rest = chunk;
    for (let nl = rest.indexOf(10); nl !== -1; nl = rest.indexOf(10)) {
      this._append(rest.subarray(0, nl));
      this._finishLine();
      rest = rest.subarray(nl + 1);
    }
    if (rest.length > 0) this._append(rest);
  }

  /** Adds part of the current line, switching to skipping once it is over the limit. */
  _append(part) {
    if (this._skipping) {
      this._skipping.size += part.length;
      this._skipping.tail = Buffer.concat([this._skipping.tail, part]).subarray(-ID_WINDOW);
      return;
    }
    this._chunks.push(part);
    this._size += part.length;
    if (this._size > this.maxMessageBytes) {
      const line = Buffer.concat(this._chunks);
      this._skipping = { size: line.length, head: line.subarray(0, ID_WINDOW), tail: line.subarray(-ID_WINDOW) };
      this._chunks = [];
      this._size = 0;
    }
  }

  _finishLine() {
    if (this._skipping) {
      const { size, head, tail } = this._skipping;
      this._skipping = null;
      this._refuse(size, idOf(head.toString('utf8'), tail.toString('utf8')));
      return;
    }
    const line = Buffer.concat(this._chunks).toString('utf8').replace(/\r$/, '');
    this._chunks = [];
    this._size = 0;
    if (line.trim() === '') return;
    let message;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error);
      return;
    }
    this.onmessage?.(message);
  }

  /** Answers a skipped message of `size` bytes with an Invalid Request error. */
  _refuse(size, id) {
    const message = `Invalid Request: the message is ${size} bytes, over this server's limit of ${this.maxMessageBytes} bytes (maxFileBytes + 1 MiB); it was not read. Send a smaller request, for example a file's content in several edits.`;
    this.send({ jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message } }).catch((error) => this.onerror?.(error));
  }

  async close() {
    this._stdin.off('data', this._ondata);
    this._stdin.off('error', this._onerror);
    if (this._stdin.listenerCount('data') === 0) this._stdin.pause();
    this._chunks = [];
    this._skipping = null;
    this.onclose?.();
  }

  send(message) {
    return new Promise((resolve) => {
      if (this._stdout.write(serializeMessage(message))) resolve();
      else this._stdout.once('drain', resolve);
    });
  }
}

module.exports = { LimitedStdioTransport };
