"""The request surface of the Python SDK, read from the SDK itself: every public
method of its clients with its parameters, and every field of every pydantic model
a parameter takes (recursively), with the values of Literal types. Printed as JSON
for test/support/sdk-surface/python-surface.ts."""
import enum
import inspect
import json
import sys
import typing

import pydantic

import firecrawl
from firecrawl.client import AsyncFirecrawl, Firecrawl
from firecrawl.v1 import AsyncV1FirecrawlApp, V1FirecrawlApp
from firecrawl.v2.client import FirecrawlClient
from firecrawl.v2.client_async import AsyncFirecrawlClient

CLIENTS = [Firecrawl, FirecrawlClient, V1FirecrawlApp, AsyncFirecrawl, AsyncFirecrawlClient, AsyncV1FirecrawlApp]
# Parameters that steer the SDK itself (polling, timeouts of the HTTP call), not the request it sends.
CLIENT_SIDE = {"self", "kwargs", "args"}


def literals(tp):
    """The string values a type allows when it is (a union of, a list of) Literal types."""
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return [v for v in typing.get_args(tp) if isinstance(v, str)]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return [m.value for m in tp if isinstance(m.value, str)]
    return [v for arg in typing.get_args(tp) for v in literals(arg)]


def models(tp):
    """The pydantic models a type mentions (through Optional, Union, List, Dict)."""
    if isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
        return [tp]
    return [m for arg in typing.get_args(tp) for m in models(arg)]


def main():
    methods = []
    fields = {}
    seen = set()

    def walk_model(model):
        if model in seen:
            return
        seen.add(model)
        for name, info in model.model_fields.items():
            key = f"{model.__name__}.{name}"
            fields[key] = {"owner": model.__name__, "field": name, "alias": info.alias, "values": sorted(set(literals(info.annotation)))}
            for nested in models(info.annotation):
                walk_model(nested)

    for cls in CLIENTS:
        for name, fn in inspect.getmembers(cls, predicate=callable):
            if name.startswith("_") or not (inspect.isfunction(fn) or inspect.iscoroutinefunction(fn)):
                continue
            methods.append({"client": cls.__name__, "method": name})
            try:
                hints = typing.get_type_hints(fn)
            except Exception:
                hints = {}
            for param in inspect.signature(fn).parameters.values():
                # Name-mangled (private) parameters are the SDK's own plumbing.
                if param.name in CLIENT_SIDE or param.name.startswith("_"):
                    continue
                tp = hints.get(param.name, param.annotation)
                owner = f"{cls.__name__}.{name}()"
                key = f"{owner}.{param.name}"
                fields.setdefault(key, {"owner": owner, "field": param.name, "alias": None, "values": []})
                fields[key]["values"] = sorted(set(fields[key]["values"]) | set(literals(tp)))
                for model in models(tp):
                    walk_model(model)
    json.dump({"version": firecrawl.__version__, "methods": methods, "fields": sorted(fields.values(), key=lambda f: (f["owner"], f["field"]))}, sys.stdout)


main()
