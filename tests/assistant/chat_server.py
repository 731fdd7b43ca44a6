"""An OpenAI-compatible chat-completions server on loopback that answers from a script.

The LLM narrator's tests against `respx` stubs never leave the process: they cannot show that
the real HTTP client, the JSON body, the structured-output parsing and the verifier hold
together. This is a real HTTP server (Starlette under uvicorn, on `127.0.0.1`, a port the
kernel picks) speaking the `POST /v1/chat/completions` dialect the narrator speaks to Ollama,
vLLM or OpenAI. Its "model" is a script: each request is answered with the next scripted
reply, wrapped the way a model wraps structured output, and every request is kept so a test
can read what the narrator sent.

No waiting on start-up: the listening socket is bound and listening before the server
thread starts, so a client's connection queues in the kernel until uvicorn accepts it.
"""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

_SHUTDOWN_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class ScriptedReply:
    """What the model answers to one request: the reply text and the chunks it says it used."""

    reply: str
    used_chunk_ids: tuple[str, ...] = ()


@dataclass
class ScriptedModel:
    """Answers each request with the next scripted reply; an exhausted script is a 500."""

    requests: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    _script: deque[ScriptedReply] = field(default_factory=deque[ScriptedReply])
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def script(self, *replies: ScriptedReply) -> None:
        with self._lock:
            self._script.clear()
            self._script.extend(replies)
            self.requests.clear()

    def answer(self, body: dict[str, Any]) -> ScriptedReply | None:
        with self._lock:
            self.requests.append(body)
            return self._script.popleft() if self._script else None


def _completion(model: str, scripted: ScriptedReply) -> dict[str, Any]:
    content = json.dumps(
        {"reply": scripted.reply, "used_chunk_ids": list(scripted.used_chunk_ids)},
        ensure_ascii=False,
    )
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def chat_app(model: ScriptedModel) -> Starlette:
    async def completions(request: Request) -> JSONResponse:
        body = await request.json()
        if not isinstance(body, dict) or not {"model", "messages", "response_format"} <= set(
            body  # pyright: ignore[reportUnknownArgumentType]
        ):
            return JSONResponse({"error": {"message": "not a chat-completions body"}}, 400)
        scripted = model.answer(body)  # pyright: ignore[reportUnknownArgumentType]
        if scripted is None:
            return JSONResponse({"error": {"message": "the script is exhausted"}}, 500)
        return JSONResponse(_completion(str(body["model"]), scripted))

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


@contextmanager
def serving(model: ScriptedModel) -> Iterator[str]:
    """Serve `model` on loopback; yields the base URL (`http://127.0.0.1:PORT/v1`)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(chat_app(model), log_level="warning", lifespan="off", access_log=False)
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(_SHUTDOWN_SECONDS)
        listener.close()
