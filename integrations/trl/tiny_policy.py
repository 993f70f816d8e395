"""A tiny randomly initialised causal LM and word-level tokenizer, served as an OpenAI-style chat endpoint with vLLM's token ids (tests)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Mapping, Tuple

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

# The words the policy can say: mcqa's boxed answers among filler, so a random policy earns rewards that differ.
ANSWERS = [f"\\boxed{{{letter}}}" for letter in "ABCD"]
WORDS = ["[UNK]", "</s>", "user:", "assistant:", "system:", "the", "answer", "is", "maybe"] + ANSWERS


def tiny_tokenizer() -> PreTrainedTokenizerFast:
    """Whitespace-split words over WORDS; anything else is [UNK]; decoded words are joined by spaces."""
    core = Tokenizer(models.WordLevel({word: i for i, word in enumerate(WORDS)}, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=core, unk_token="[UNK]", eos_token="</s>", pad_token="</s>")


def tiny_model(seed: int = 0) -> LlamaForCausalLM:
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(WORDS), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                         num_key_value_heads=2, max_position_embeddings=1024, eos_token_id=1, pad_token_id=1, bos_token_id=1)
    return LlamaForCausalLM(config)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, Mapping))
    return ""


def chat_prompt(messages: List[Mapping[str, Any]]) -> str:
    """The chat template: `role: content` per message, then `assistant:`."""
    return " ".join(f"{m.get('role', 'user')}: {_text(m.get('content'))}" for m in messages) + " assistant:"


class TinyPolicy:
    """Samples from the model with per-token logprobs; one request at a time (the model is shared with the trainer)."""

    def __init__(self, model: LlamaForCausalLM, tokenizer: PreTrainedTokenizerFast, seed: int = 0):
        self.model, self.tokenizer = model, tokenizer
        self.generator = torch.Generator().manual_seed(seed)
        self.lock = threading.Lock()
        self.calls = 0

    def complete(self, body: Mapping[str, Any]) -> Dict[str, Any]:
        prompt_ids = self.tokenizer(chat_prompt(body.get("messages", [])))["input_ids"]
        max_tokens = int(body.get("max_tokens") or body.get("max_completion_tokens") or 8)
        temperature = float(body.get("temperature") if body.get("temperature") is not None else 1.0)
        ids, logprobs, finish = self._sample(prompt_ids, max_tokens, max(temperature, 1e-5))
        return {"id": f"chatcmpl-tiny-{self.calls}", "object": "chat.completion", "created": int(time.time()),
                "model": body.get("model", "tiny"), "prompt_token_ids": prompt_ids,
                "choices": [{"index": 0, "finish_reason": finish, "token_ids": ids,
                             "message": {"role": "assistant", "content": self.tokenizer.decode(ids, skip_special_tokens=True)},
                             "logprobs": {"content": [{"token": f"token_id:{t}", "logprob": lp, "bytes": None, "top_logprobs": []}
                                                      for t, lp in zip(ids, logprobs)]}}],
                "usage": {"prompt_tokens": len(prompt_ids), "completion_tokens": len(ids), "total_tokens": len(prompt_ids) + len(ids)}}

    def _sample(self, prompt_ids: List[int], max_tokens: int, temperature: float) -> Tuple[List[int], List[float], str]:
        with self.lock, torch.no_grad():
            self.calls += 1
            was_training = self.model.training
            self.model.eval()
            sequence, ids, logprobs = list(prompt_ids), [], []
            try:
                for _ in range(max_tokens):
                    logits = self.model(torch.tensor([sequence])).logits[0, -1].float() / temperature
                    distribution = torch.log_softmax(logits, dim=-1)
                    token = int(torch.multinomial(distribution.exp(), 1, generator=self.generator))
                    ids.append(token)
                    logprobs.append(float(distribution[token]))
                    sequence.append(token)
                    if token == self.tokenizer.eos_token_id:
                        return ids, logprobs, "stop"
                return ids, logprobs, "length"
            finally:
                self.model.train(was_training)


def serve(policy: TinyPolicy, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """Starts `/v1/chat/completions` and `/v1/models` in a daemon thread; the server's port is `server_address[1]`."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: Any) -> None:
            pass

        def _send(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/v1/models":
                self._send(200, {"object": "list", "data": [{"id": "tiny", "object": "model"}]})
            else:
                self._send(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            self._send(200, policy.complete(body))

    server = ThreadingHTTPServer((host, port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
