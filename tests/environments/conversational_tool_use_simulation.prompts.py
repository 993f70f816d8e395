# NeMo Gym's own prompt code (its app.py, methods lifted out with ast and run in CPython with the standard library only),
# printing the prompts the port must send byte for byte. stdin: {"app", "state", "evaluation_schema", "combined_schema"}.
from __future__ import annotations

import __future__
import ast
import json
import sys
from types import SimpleNamespace

request = json.load(sys.stdin)
source = open(request["app"], encoding="utf-8").read()
tree = ast.parse(source)
namespace: dict = {}
FLAGS = __future__.annotations.compiler_flag
exec("from __future__ import annotations\nimport json, re, textwrap\nfrom enum import StrEnum\nfrom typing import *", namespace)

classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
for node in tree.body:
    if isinstance(node, ast.Assign) and any(getattr(t, "id", "").endswith("INDICATOR") for t in node.targets):
        exec(compile(ast.Module([node], []), "app.py", "exec", FLAGS, True), namespace)
for name in ("MessageType", "Source", "TrajectoryEvaluationType"):
    exec(compile(ast.Module([classes[name]], []), "app.py", "exec", FLAGS, True), namespace)


def lifted(class_name: str, members: set[str], bases: str = "") -> type:
    """A plain class holding the named members (methods, properties, ClassVar strings) of one of app.py's classes."""
    body = [
        node
        for node in classes[class_name].body
        if (isinstance(node, ast.FunctionDef) and node.name in members)
        or (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id in members)
    ]
    shell = ast.parse(f"class {class_name}({bases}):\n    pass").body[0]
    shell.body = body or shell.body
    exec(compile(ast.fix_missing_locations(ast.Module([shell], [])), "app.py", "exec", FLAGS, True), namespace)
    return namespace[class_name]


server_members = {
    name
    for name in (
        node.target.id if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) else getattr(node, "name", "")
        for node in classes["ConversationalToolUseSimulationServer"].body
    )
    if name.isupper() or name.endswith("_TEMPLATE") or name.endswith("_PREFIX")
}
server_members |= {
    "_system_messages",
    "_format_tool_definitions",
    "_format_message",
    "_format_message_list",
    "_user_simulator_messages",
    "_environment_simulator_system_message",
    "_environment_simulator_messages",
    "_combined_evaluation_system_message",
}
Server = lifted("ConversationalToolUseSimulationServer", server_members)
Scenario = lifted("CustomerScenario", {"create_string"})
Tool = lifted("ToolSignature", {"normalized_doc", "normalized_params"})
schema = json.loads(request["evaluation_schema"])
namespace["Evaluation"] = SimpleNamespace(model_json_schema=lambda: schema)
combined = json.loads(request["combined_schema"])
namespace["UserAgentEnvironmentEvaluation"] = SimpleNamespace(model_json_schema=lambda: combined)
namespace["NeMoGymEasyInputMessage"] = lambda role, content: {"role": role, "content": content}

raw = request["state"]
scenario = Scenario()
scenario.__dict__.update(raw["customer_scenario"])
tools = []
for signature in raw["tools"]:
    tool = Tool()
    tool.__dict__.update({"doc": None, "description": None, "params": None, "parameters": None, "returns": None, **signature})
    tools.append(tool)
Source, MessageType = namespace["Source"], namespace["MessageType"]
messages = [
    SimpleNamespace(
        **{"tool_call_id": None, "tool_name": None, "arguments": None, "content": None, **m, "type": MessageType(m["type"]), "source": Source(m["source"])}
    )
    for m in raw["messages"]
]
state = SimpleNamespace(policy=raw["policy"], customer_scenario=scenario, tool_signatures=tools, messages=messages)
server = Server()
system = server._system_messages(state)
print(
    json.dumps(
        {
            "judge": {str(key): value for key, value in system.items()},
            "combined": server._combined_evaluation_system_message(state),
            "step": server.MESSAGE_CONVERSATION_TEMPLATE.format(
                previous_steps=server._format_message_list(messages[:-1]), current_step=server._format_message(messages[-1])
            ),
            "conversation": server.COMPLETE_CONVERSATION_TEMPLATE.format(steps=server._format_message_list(messages)),
            "user": server._user_simulator_messages(state),
            "tool_simulator": server._environment_simulator_messages(state),
        }
    )
)
