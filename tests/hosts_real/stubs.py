"""Stub model servers for the real Claude Code and Codex clients: the only thing these tests mock.

The model is hosted and nondeterministic, so it is the one part we replace; the clients, their
hooks, their MCP client and clawmem run for real. Each stub speaks one documented wire format
and logs every request it receives:

* Anthropic Messages API (https://docs.anthropic.com/en/api/messages-streaming):
  ``POST /v1/messages`` with ``"stream": true`` answers Server-Sent Events ``message_start``,
  then per content block ``content_block_start`` / ``content_block_delta`` (``text_delta``, or
  ``input_json_delta`` for a ``tool_use`` block) / ``content_block_stop``, then
  ``message_delta`` (``stop_reason`` ``end_turn`` or ``tool_use``) and ``message_stop``;
  ``POST /v1/messages/count_tokens`` answers ``{"input_tokens": N}``.
* OpenAI Responses API (https://platform.openai.com/docs/api-reference/responses-streaming):
  ``POST /v1/responses`` answers ``response.created``, per output item
  ``response.output_item.added`` ... ``response.output_item.done`` (a ``message`` with
  ``output_text`` deltas, or a ``function_call`` with ``response.function_call_arguments.*``),
  then ``response.completed`` with the response's ``usage``.

What the model "says" is scripted: a :class:`Rule` calls one tool (found by the end of its name
in the request's tool list, so ``search_memory`` finds ``mcp__clawmem__search_memory``) the
first time its trigger appears in the newest user message; once the tool result comes back,
or when no rule fires, the model answers with text. Servers bind to 127.0.0.1 on a free port.
"""

from __future__ import annotations

import gzip
import itertools
import json
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Rule:
    """When ``trigger`` is in the newest user message: call ``tool`` with ``arguments``, once."""

    trigger: str
    tool: str
    arguments: dict[str, Any]
    answer: str = "I looked that up."  # the text after the tool result came back


@dataclass
class Request:
    """One request the stub received: path, headers and the decoded JSON body."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any

    @property
    def text(self) -> str:
        """The whole body as JSON text: what reached the model, for substring checks."""
        return json.dumps(self.body, ensure_ascii=False)


@dataclass
class Turn:
    """What the script needs from one model request, whatever the wire format."""

    user_text: str  # every text of the newest user message (typed prompt and injected context)
    tool_result: str | None  # the newest item's tool output, when the newest item is one
    tools: list[str]


@dataclass
class Script:
    """The scripted model: tool-call rules, text answers, and what the person typed last.

    The driver sets ``prompt`` before each run of the host, so a rule or an answer is chosen by
    what the person typed, never by context a hook injected next to it (recall can bring back
    an earlier prompt's words). Without it the newest user message is matched.
    """

    rules: list[Rule] = field(default_factory=list)
    answers: dict[str, str] = field(default_factory=dict)  # text in the prompt -> text reply
    default: str = "Noted."
    prompt: str = ""
    fired: list[int] = field(default_factory=list)

    def reply(self, turn: Turn) -> tuple[str, str, dict[str, Any]] | tuple[str, str]:
        """``("call", tool_name, arguments)`` or ``("text", text)``."""
        said = self.prompt or turn.user_text
        if turn.tool_result is not None:
            return ("text", self.rules[self.fired[-1]].answer if self.fired else self.default)
        for number, rule in enumerate(self.rules):
            if number in self.fired or rule.trigger not in said:
                continue
            names = [name for name in turn.tools if name == rule.tool or name.endswith("__" + rule.tool) or name.endswith("." + rule.tool)]
            if not names:
                return ("text", f"(stub: tool {rule.tool} is not listed in this request)")
            self.fired.append(number)
            return ("call", names[0], rule.arguments)
        return ("text", next((text for trigger, text in self.answers.items() if trigger in said), self.default))


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _decode(raw: bytes, encoding: str) -> Any:
    if encoding == "gzip":
        raw = gzip.decompress(raw)
    elif encoding == "deflate":
        raw = zlib.decompress(raw)
    elif encoding not in ("", "identity"):
        return {"undecoded": encoding, "bytes": len(raw)}
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return {"unparsed": raw.decode("utf-8", "replace")}


class _Server(ThreadingHTTPServer):
    daemon_threads = True


class StubModel:
    """A scripted model API on 127.0.0.1: ``with StubModel("anthropic", script) as stub: stub.url``."""

    def __init__(self, api: str, script: Script | None = None) -> None:
        assert api in ("anthropic", "openai")
        self.api = api
        self.script = script or Script()
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 -- the base class's name
                pass

            def do_GET(self) -> None:
                stub._log(self, None)
                self._json(404, {"error": {"type": "not_found_error", "message": f"stub has no GET {self.path}"}})

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                body = _decode(raw, (self.headers.get("Content-Encoding") or "").lower())
                stub._log(self, body)
                path = self.path.split("?")[0]
                if stub.api == "anthropic" and path.endswith("/messages/count_tokens"):
                    self._json(200, {"input_tokens": max(1, len(json.dumps(body)) // 4)})
                elif stub.api == "anthropic" and path.endswith("/messages"):
                    self._stream(stub._anthropic(body))
                elif stub.api == "openai" and path.endswith("/responses"):
                    self._stream(stub._openai(body))
                else:
                    self._json(404, {"error": {"type": "not_found_error", "message": f"stub has no POST {self.path}"}})

            def _json(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, events: Iterator[bytes]) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                for chunk in events:
                    self.wfile.write(chunk)
                    self.wfile.flush()
                self.close_connection = True

        self._server = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> StubModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _log(self, handler: BaseHTTPRequestHandler, body: Any) -> None:
        with self._lock:
            self.requests.append(Request(handler.command, handler.path, dict(handler.headers.items()), body))

    def model_calls(self) -> list[Request]:
        """The requests that asked the model for a reply (not token counts or other calls)."""
        suffix = "/messages" if self.api == "anthropic" else "/responses"
        with self._lock:
            return [r for r in self.requests if r.method == "POST" and r.path.split("?")[0].endswith(suffix)]

    def view(self, request: Request) -> Turn:
        """The script's view of one logged request: newest user message, tool result, tool names."""
        return anthropic_turn(request.body) if self.api == "anthropic" else openai_turn(request.body)

    # -- Anthropic Messages -------------------------------------------------------------------

    def _anthropic(self, body: Any) -> Iterator[bytes]:
        turn = anthropic_turn(body)
        with self._lock:
            reply = self.script.reply(turn)
            number = next(self._ids)
        model = body.get("model", "stub") if isinstance(body, dict) else "stub"
        usage = {"input_tokens": max(1, len(json.dumps(body)) // 4), "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        message = {"id": f"msg_stub{number:06d}", "type": "message", "role": "assistant", "model": model, "content": [],
                   "stop_reason": None, "stop_sequence": None, "usage": usage}
        yield _sse("message_start", {"type": "message_start", "message": message})
        yield _sse("ping", {"type": "ping"})
        if reply[0] == "call":
            _, name, arguments = reply  # type: ignore[misc]
            block = {"type": "tool_use", "id": f"toolu_stub{number:06d}", "name": name, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(arguments)}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": reply[1]}
            stop = "end_turn"
        yield _sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block})
        yield _sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta})
        yield _sse("content_block_stop", {"type": "content_block_stop", "index": 0})
        yield _sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 8}})
        yield _sse("message_stop", {"type": "message_stop"})

    # -- OpenAI Responses ---------------------------------------------------------------------

    def _openai(self, body: Any) -> Iterator[bytes]:
        turn = openai_turn(body)
        with self._lock:
            reply = self.script.reply(turn)
            number = next(self._ids)
        seq = itertools.count()
        model = body.get("model", "stub") if isinstance(body, dict) else "stub"
        response = {"id": f"resp_stub{number:06d}", "object": "response", "created_at": 0, "status": "in_progress", "model": model, "output": []}
        yield _sse("response.created", {"type": "response.created", "sequence_number": next(seq), "response": response})
        yield _sse("response.in_progress", {"type": "response.in_progress", "sequence_number": next(seq), "response": response})
        if reply[0] == "call":
            _, name, arguments = reply  # type: ignore[misc]
            args = json.dumps(arguments)
            namespace, _, short = name.rpartition(".")  # a tool inside a ``namespace`` tool (Codex lists MCP servers so)
            item: dict[str, Any] = {"type": "function_call", "id": f"fc_stub{number:06d}", "call_id": f"call_stub{number:06d}", "name": short,
                                    "arguments": "", "status": "in_progress", **({"namespace": namespace} if namespace else {})}
            yield _sse("response.output_item.added", {"type": "response.output_item.added", "sequence_number": next(seq), "output_index": 0, "item": item})
            yield _sse("response.function_call_arguments.delta", {"type": "response.function_call_arguments.delta", "sequence_number": next(seq),
                                                                  "item_id": item["id"], "output_index": 0, "delta": args})
            yield _sse("response.function_call_arguments.done", {"type": "response.function_call_arguments.done", "sequence_number": next(seq),
                                                                 "item_id": item["id"], "output_index": 0, "arguments": args})
            item = {**item, "arguments": args, "status": "completed"}
        else:
            text = reply[1]
            item = {"type": "message", "id": f"msg_stub{number:06d}", "role": "assistant", "status": "in_progress", "content": []}
            part = {"type": "output_text", "text": "", "annotations": []}
            base = {"item_id": item["id"], "output_index": 0, "content_index": 0}
            yield _sse("response.output_item.added", {"type": "response.output_item.added", "sequence_number": next(seq), "output_index": 0, "item": item})
            yield _sse("response.content_part.added", {"type": "response.content_part.added", "sequence_number": next(seq), **base, "part": part})
            yield _sse("response.output_text.delta", {"type": "response.output_text.delta", "sequence_number": next(seq), **base, "delta": text})
            yield _sse("response.output_text.done", {"type": "response.output_text.done", "sequence_number": next(seq), **base, "text": text})
            done_part = {**part, "text": text}
            yield _sse("response.content_part.done", {"type": "response.content_part.done", "sequence_number": next(seq), **base, "part": done_part})
            item = {**item, "status": "completed", "content": [done_part]}
        yield _sse("response.output_item.done", {"type": "response.output_item.done", "sequence_number": next(seq), "output_index": 0, "item": item})
        usage = {"input_tokens": max(1, len(json.dumps(body)) // 4), "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 8,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 8 + max(1, len(json.dumps(body)) // 4)}
        done = {**response, "status": "completed", "output": [item], "usage": usage}
        yield _sse("response.completed", {"type": "response.completed", "sequence_number": next(seq), "response": done})


def _texts(content: Any) -> list[str]:
    """The text of a message's content: a string, or the ``text`` of its blocks/parts."""
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [part["text"] for part in content if isinstance(part, dict) and isinstance(part.get("text"), str)]
    return []


def anthropic_turn(body: Any) -> Turn:
    """The newest user message of a Messages API request, and its tool result if it carries one."""
    messages = body.get("messages", []) if isinstance(body, dict) else []
    tools = [t.get("name", "") for t in (body.get("tools") or [])] if isinstance(body, dict) else []
    last = next((m for m in reversed(messages) if m.get("role") == "user"), None)
    if last is None:
        return Turn("", None, tools)
    content = last.get("content")
    results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"] if isinstance(content, list) else []
    result = "\n".join("\n".join(_texts(b.get("content"))) for b in results) if results else None
    return Turn("\n".join(_texts(content)), result, tools)


def openai_turn(body: Any) -> Turn:
    """The newest user message of a Responses API request, and the newest item's tool output."""
    items = body.get("input", []) if isinstance(body, dict) else []
    tools = []
    for tool in (body.get("tools") or []) if isinstance(body, dict) else []:
        tools.append(tool.get("name", ""))
        tools.extend(f"{tool.get('name', '')}.{sub.get('name', '')}" for sub in tool.get("tools") or [] if isinstance(sub, dict))
    result = None
    if items and isinstance(items[-1], dict) and items[-1].get("type") == "function_call_output":
        output = items[-1].get("output")
        result = output if isinstance(output, str) else json.dumps(output)
    user = next((i for i in reversed(items) if isinstance(i, dict) and i.get("type", "message") == "message" and i.get("role") == "user"), None)
    return Turn("\n".join(_texts(user.get("content"))) if user else "", result, tools)
