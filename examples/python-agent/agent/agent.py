#!/usr/bin/env python3
"""A small tool-using agent (standard library only), run by Ecdysis as a command harness.

Protocol (schemas/command-output.schema.json): one task JSON on stdin ({id, input, category,
sampleIndex, model}); one JSON object on stdout: {output, trace: {steps, events, usage}}.
Logs go to stderr. The endpoint is any OpenAI-compatible chat API: OPENAI_BASE_URL (Ecdysis
sets it, and ECDYSIS_BASE_URL, to the run's model), OPENAI_API_KEY when it needs a key.

What Ecdysis may change lives beside this file: prompts/system.md (the system prompt),
tools/calculator.json (the tool's description) and settings.json (the loop's limits).
"""

import ast
import json
import operator
import os
import sys
import urllib.error
import urllib.request

HERE = os.environ.get("ECDYSIS_HARNESS_DIR") or os.path.dirname(os.path.abspath(__file__))


def read(path):
    with open(os.path.join(HERE, path), encoding="utf-8") as handle:
        return handle.read()


OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}


def evaluate(node):
    """Arithmetic only: numbers, + - * / %, parentheses. Never eval()."""
    if isinstance(node, ast.Expression):
        return evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        return OPERATORS[type(node.op)](evaluate(node.left), evaluate(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in OPERATORS:
        return OPERATORS[type(node.op)](evaluate(node.operand))
    raise ValueError("unsupported expression")


def calculator(arguments):
    expression = str(arguments.get("expression", ""))
    for char in expression:
        if not (char.isdigit() or char in "+-*/%(). "):
            return f"error: invalid character '{char}' in expression", True
    try:
        value = evaluate(ast.parse(expression, mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError) as error:
        return f"error: {error}", True
    return format(value, "g") if isinstance(value, float) else str(value), False


def chat(messages, tools, settings, seed):
    base = os.environ.get("OPENAI_BASE_URL") or os.environ.get("ECDYSIS_BASE_URL")
    if not base:
        raise RuntimeError("OPENAI_BASE_URL is not set (Ecdysis sets it to the run's model)")
    body = {
        "model": os.environ.get("ECDYSIS_MODEL") or settings["model"],
        "messages": messages,
        "tools": tools,
        "temperature": settings["temperature"],
        "seed": seed,
    }
    headers = {"content-type": "application/json"}
    if os.environ.get("OPENAI_API_KEY"):
        headers["authorization"] = "Bearer " + os.environ["OPENAI_API_KEY"]
    request = urllib.request.Request(
        base.rstrip("/") + "/chat/completions", json.dumps(body).encode(), headers
    )
    with urllib.request.urlopen(request, timeout=settings["request_timeout_s"]) as response:
        return json.load(response)


def run(task):
    settings = json.loads(read("settings.json"))
    tool = json.loads(read("tools/calculator.json"))
    tools = [{"type": "function", "function": tool}]
    messages = [
        {"role": "system", "content": read("prompts/system.md")},
        {"role": "user", "content": task["input"]},
    ]
    steps, events = [], []
    usage = {"promptTokens": 0, "completionTokens": 0, "llmCalls": 0}
    for step in range(settings["max_steps"]):
        reply = chat(messages, tools, settings, task.get("sampleIndex", 0))
        message = reply["choices"][0]["message"]
        tokens = reply.get("usage") or {}
        usage["promptTokens"] += tokens.get("prompt_tokens", 0)
        usage["completionTokens"] += tokens.get("completion_tokens", 0)
        usage["llmCalls"] += 1
        calls = message.get("tool_calls") or []
        record = {
            "assistant": message.get("content"),
            "toolCalls": [],
            "promptTokens": tokens.get("prompt_tokens", 0),
            "completionTokens": tokens.get("completion_tokens", 0),
        }
        steps.append(record)
        if not calls:
            return {"output": message.get("content") or "", "trace": trace(steps, events, usage)}
        messages.append(
            {"role": "assistant", "content": message.get("content"), "tool_calls": calls}
        )
        for call in calls:
            try:
                arguments = json.loads(call["function"].get("arguments") or "{}")
            except json.JSONDecodeError:
                arguments = {}
            if call["function"]["name"] == tool["name"]:
                result, failed = calculator(arguments)
            else:
                result, failed = f"error: no tool named '{call['function']['name']}'", True
            if failed:
                events.append({"kind": "tool-error", "step": step, "detail": result})
            record["toolCalls"].append(
                {"name": call["function"]["name"], "arguments": arguments, "result": result, "error": failed}
            )
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    events.append({"kind": "step-limit", "step": settings["max_steps"]})
    last = steps[-1]["assistant"] if steps else ""
    return {"output": last or "", "trace": trace(steps, events, usage)}


def trace(steps, events, usage):
    return {"steps": steps, "events": events, "usage": usage}


def main():
    task = json.load(sys.stdin)
    print(f"task {task['id']}", file=sys.stderr)
    try:
        result = run(task)
    except urllib.error.HTTPError as error:
        detail = error.read().decode("utf-8", "replace")[:500]
        print(f"model endpoint refused: HTTP {error.code}: {detail}", file=sys.stderr)
        sys.exit(2)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
