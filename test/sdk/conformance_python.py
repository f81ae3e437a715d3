"""Drop-in by construction, Python side: the official SDK's body-sending methods,
called with keyword arguments that hypothesis builds from the SDK's own method
signatures and pydantic models, against a real gateway as a team without credits.
A request the gateway accepts is answered 402 (the credit check comes after every
check of the request); one it refuses is answered 4xx (or 501 for a Firecrawl cloud
service). Which of the two each request must get is read from the coverage rows
(test/sdk/coverage), passed in ORACLE as {python key: disposition}.

Run by test/integration/sdk-conformance-python.test.ts with API_URL, POOR_KEY,
ORACLE (a JSON file), EXAMPLES (per method) and SEED set; prints one JSON line per
method: {"method", "accepted", "refused", "not_sent", "failures": [...]}. A failure
names the seed, the arguments and what was wrong.
"""
import enum
import inspect
import json
import os
import re
import sys
import typing

import pydantic
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from firecrawl import Firecrawl
from firecrawl.v2.client import FirecrawlClient
from firecrawl.v2.utils.error_handler import FirecrawlError
from firecrawl.v1 import V1FirecrawlApp

API_URL = os.environ["API_URL"]
ORACLE = json.load(open(os.environ["ORACLE"]))
EXAMPLES = int(os.environ.get("EXAMPLES", "60"))
SEED = int(os.environ.get("SEED", "0"))

# ---- values right in substance (the SDK's types allow any str; the API's rules do not) ----

word = st.from_regex(r"\A[a-z][a-z0-9]{0,10}\Z")
text = st.from_regex(r"\A[A-Za-z][A-Za-z0-9 ,.?-]{0,40}\Z")
host = st.builds(lambda sub, domain: f"{sub}.{domain}", word, st.sampled_from(["example.com", "example.org", "test.example.net"]))
public_url = st.builds(lambda scheme, h, path: f"{scheme}://{h}/{'/'.join(path)}", st.sampled_from(["https", "http"]), host, st.lists(word, max_size=2))
selector = st.sampled_from(["main", "article", "#content", ".item", "a[href]", "div > p", "h1, h2"])
headers = st.dictionaries(st.from_regex(r"\Ax-[a-z]{1,10}\Z"), st.from_regex(r"\A[A-Za-z0-9 ;=_./-]{0,30}\Z"), max_size=3)
json_schema = st.sampled_from(
    [
        {"type": "object", "properties": {"title": {"type": "string"}}},
        {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}}, "required": ["items"]},
    ]
)
path_pattern = st.sampled_from(["^/blog/.*", "/docs/", ".*\\.html$", "page-[0-9]+"])

# By the field's name: what a value must be to be right in substance (documented limits).
BY_NAME = {
    "url": public_url,
    "urls": st.lists(public_url, min_size=1, max_size=3),
    "query": st.sampled_from(["pricing", "site:example.com docs", '"exact words" -minus']),
    "prompt": text,
    "system_prompt": text,
    "question": text,
    "search": text,
    "headers": headers,
    "include_tags": st.lists(selector, max_size=2),
    "exclude_tags": st.lists(selector, max_size=2),
    "selector": selector,
    "include_paths": st.lists(path_pattern, max_size=2),
    "exclude_paths": st.lists(path_pattern, max_size=2),
    "schema": json_schema,
    "schema_field": json_schema,
    "timeout": st.integers(1000, 120_000),
    "wait_for": st.integers(0, 10_000),
    "max_age": st.integers(0, 30 * 86_400_000),
    "min_age": st.integers(0, 30 * 86_400_000),
    "limit": st.integers(1, 100),
    "max_discovery_depth": st.integers(0, 10),
    "max_depth": st.integers(0, 10),
    "delay": st.integers(1, 60),
    "max_concurrency": st.integers(1, 50),
    "max_credits": st.integers(1, 1000),
    "max_pages": st.integers(1, 10000),
    "quality": st.integers(1, 100),
    "width": st.integers(1, 7680),
    "height": st.integers(1, 4320),
    "scale": st.floats(0.1, 2.0),
    "milliseconds": st.integers(1, 2000),
    "key": st.sampled_from(["Enter", "Tab", "Escape"]),
    "script": st.sampled_from(["1 + 1", "document.title"]),
    "country": st.sampled_from(["US", "DE", "fr", "JP"]),
    "languages": st.lists(st.sampled_from(["en-US", "de-DE", "fr"]), max_size=2),
    "tbs": st.sampled_from(["qdr:d", "qdr:w", "sbd:1,qdr:m"]),
    "location": st.sampled_from(["Germany", "San Francisco,California,United States"]),
    "include_domains": st.lists(host, max_size=2),
    "exclude_domains": st.lists(host, max_size=2),
    "blacklist": st.lists(st.one_of(host, host.map(lambda h: "*." + h)), max_size=2),
    "whitelist": st.lists(host, max_size=2),
    "blocked_tlds": st.lists(st.sampled_from(["zip", "xyz"]), max_size=2),
    "risk_score_threshold": st.integers(0, 100),
    "username": word,
    "name": st.from_regex(r"\A[a-z][a-z0-9-]{0,15}\Z"),
    "tag": word,
    "robots_user_agent": st.sampled_from(["MyBot/1.0"]),
    "metadata": st.dictionaries(word, word, max_size=2),
    "attribute": st.sampled_from(["href", "src", "data-id"]),
    "text": text,
    "integration": word,
    "use_mock": word,
    "toolkits": st.lists(word, min_size=1, max_size=3),
    "max_calls": st.integers(0, 20),
    "approval_id": word,
    "call_ids": st.lists(word, max_size=2),
    "id": st.uuids().map(str),
    "idempotency_key": st.uuids().map(str),
    "webhook": public_url,
    # The methods' signatures say str; the request's models (and the API) take these.
    "proxy": st.sampled_from(["basic", "stealth", "enhanced", "auto"]),
}

# STRUCTURED fields built from v2 models: taken only where the field's type has them.
MODEL_TYPED = {"formats", "parsers"}

# What every call names, though a signature may give it a default (scrape's url is optional beside alexandria).
ALWAYS_SENT = {"url", "urls", "query", "prompt"}

# Arguments not generated, with why: a value that must name something that exists, or a switch to another request kind.
NOT_GENERATED = {
    "append_to_id": "the id of an existing batch",
    "thread_id": "the id of an existing agent thread",
    "alexandria": "a request to the Alexandria exchange, refused as a cloud service (cloud-services.test.ts)",
    "request_id": "only with alexandria",
    "auto_resume": "SDK-side",
    "poll_interval": "SDK-side",
    "request_timeout": "SDK-side",
    "wait_timeout": "SDK-side",
    "file": "the upload itself (the script sends a fixed HTML file)",
    "filename": "the upload itself",
    "content_type": "the upload itself",
    "params": "a dict of any request fields: the keyword arguments cover them",
    "on_activity": "a callback",
    "on_source": "a callback",
}


def has_model(tp):
    if isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
        return True
    return any(has_model(a) for a in typing.get_args(tp))


def snake(name):
    """The v1 client's models name fields in camelCase; the rules below use the v2 models' snake_case."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def strategy_for(tp, name, depth=0):
    """A strategy of values of type `tp` for a field called `name`."""
    name = snake(name)
    # Only where the SDK's type is its own models' (the v1 client's formats are plain literals).
    if name in STRUCTURED and (has_model(tp) or name not in MODEL_TYPED):
        return STRUCTURED[name]()
    if name in BY_NAME and not has_model(tp) and typing.get_origin(tp) not in (dict, typing.Dict):
        return BY_NAME[name]
    origin = typing.get_origin(tp)
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if origin is typing.Literal:
        return st.sampled_from(list(typing.get_args(tp)))
    if origin is typing.Union:
        # A dict beside a model is that model's untyped form: its keys are the model's fields, built from the model.
        typed = [a for a in args if not (typing.get_origin(a) in (dict, typing.Dict) and any(has_model(b) for b in args))]
        return st.one_of([strategy_for(a, name, depth) for a in typed])
    if origin in (list, typing.List):
        item = args[0] if args else typing.Any
        return st.lists(strategy_for(item, name, depth + 1), max_size=3)
    if origin in (dict, typing.Dict):
        value_type = args[1] if len(args) == 2 else str
        return st.dictionaries(word, strategy_for(value_type, "", depth + 1), max_size=2)
    if isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
        return model_strategy(tp, depth)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return st.sampled_from(list(tp))
    if tp is bool:
        return st.booleans()
    if tp is int:
        return st.integers(0, 1000)
    if tp is float:
        return st.floats(0, 100, allow_nan=False)
    if tp is str:
        return word
    return st.none()


# ---- fields whose SDK type allows shapes the API gives no meaning (any dict, any string): built from the SDK's own models ----

def formats_strategy():
    from firecrawl.v2 import types as t

    names = st.sampled_from(["markdown", "html", "rawHtml", "raw_html", "links", "images", "screenshot", "summary", "branding", "product", "menu", "audio", "video"])
    objects = st.one_of(
        # The json format needs a prompt, a schema or both.
        model_strategy(t.JsonFormat).filter(lambda f: f.prompt is not None or f.model_dump().get("schema") is not None),
        model_strategy(t.ScreenshotFormat),
        model_strategy(t.AttributesFormat),
        model_strategy(t.QuestionFormat),
        model_strategy(t.HighlightsFormat),
        model_strategy(t.QueryFormat),
        model_strategy(t.ChangeTrackingFormat),
    )
    return st.lists(st.one_of(names, objects), max_size=4).map(distinct_formats)


def format_type(f):
    kind = f if isinstance(f, str) else getattr(f, "type", None)
    return {"raw_html": "rawHtml", "change_tracking": "changeTracking"}.get(kind, kind)


def distinct_formats(formats):
    """The service's rules (docs/api/crawl.md#scrapeoptions): one of each type, changeTracking with markdown, not question beside query."""
    seen, out = set(), []
    for f in formats:
        kind = format_type(f)
        if kind in seen or (kind == "query" and "question" in seen) or (kind == "question" and "query" in seen):
            continue
        seen.add(kind)
        out.append(f)
    if "changeTracking" in seen and "markdown" not in seen:
        out.append("markdown")
    return out


def parsers_strategy():
    from firecrawl.v2 import types as t

    return st.lists(st.one_of(st.sampled_from(["pdf", "image"]), model_strategy(t.PDFParser), model_strategy(t.ImageParser)), max_size=2)


def sources_strategy():
    from firecrawl.v2 import types as t

    name = st.sampled_from(["web", "news", "images", "alexandria"])
    return st.lists(st.one_of(name, name.map(lambda n: t.Source(type=n))), min_size=1, max_size=3).map(with_served_source)


def with_served_source(sources):
    """alexandria alone is refused (501, test/integration/cloud-services.test.ts); beside a served source it is a warning."""
    kinds = [s if isinstance(s, str) else s.type for s in sources]
    unique = [s for i, s in enumerate(sources) if kinds.index(kinds[i]) == i]
    return unique if any(k != "alexandria" for k in kinds) else unique + ["web"]


def categories_strategy():
    from firecrawl.v2 import types as t

    name = st.sampled_from(["github", "research", "pdf", "developer"])
    return st.lists(st.one_of(name, name.map(lambda n: t.Category(type=n))), max_size=1)


STRUCTURED = {
    "formats": formats_strategy,
    "parsers": parsers_strategy,
    "sources": sources_strategy,
    "categories": categories_strategy,
    "profile": lambda: st.fixed_dictionaries({"name": BY_NAME["name"]}, optional={"saveChanges": st.booleans()}),
    "enterprise": lambda: st.lists(st.sampled_from(["default", "anon", "zdr"]), max_size=1),
    "viewport": lambda: st.fixed_dictionaries({"width": BY_NAME["width"], "height": BY_NAME["height"]}),
}


def model_strategy(model, depth=0):
    """Instances of a pydantic model with its required fields and any subset of the others."""
    required, optional = {}, {}
    hints = typing.get_type_hints(model)
    for fname, info in model.model_fields.items():
        if depth > 4 and not info.is_required():
            continue
        strat = strategy_for(hints.get(fname, info.annotation), fname, depth + 1)
        (required if info.is_required() else optional)[fname] = strat
    built = st.fixed_dictionaries(required, optional=optional).map(lambda d: model(**d))
    rule = MODEL_RULES.get(model.__name__)
    fix = MODEL_FIXES.get(model.__name__)
    return (built.filter(rule) if rule else built).map(fix) if fix else (built.filter(rule) if rule else built)


def wait_within_timeout(options):
    """waitFor at most half the timeout (the service's rule, as upstream's; 60000 when unset)."""
    wait_name = "wait_for" if "wait_for" in type(options).model_fields else "waitFor"
    wait = getattr(options, wait_name)
    if wait is None:
        return options
    return options.model_copy(update={wait_name: min(wait, (options.timeout or 60_000) // 2)})


def redactable(options):
    """Redaction leaves nothing unredacted (docs/api/redaction.md): no screenshot or changeTracking format, no screenshot or pdf action."""
    if not options.redact_pii:
        return options
    update = {}
    if options.formats and isinstance(options.formats, list):
        update["formats"] = [f for f in options.formats if format_type(f) not in ("screenshot", "changeTracking")]
    if options.actions:
        update["actions"] = [a for a in options.actions if getattr(a, "type", None) not in ("screenshot", "pdf")]
    return options.model_copy(update=update)


def v1_formats(formats):
    """v1's rules (docs/api/v1.md): each format once, one screenshot kind, changeTracking with markdown."""
    out = []
    for f in formats:
        if f in out or (f.startswith("screenshot") and any(o.startswith("screenshot") for o in out)):
            continue
        out.append(f)
    if "changeTracking" in out and "markdown" not in out:
        out.append("markdown")
    return out


def v1_without_model_formats(options):
    """V1ScrapeOptions has no jsonOptions: its json and extract formats could not be sent with them (a 400 upstream too)."""
    options = wait_within_timeout(options)
    if not options.formats:
        return options
    return options.model_copy(update={"formats": [f for f in v1_formats(options.formats) if f not in ("json", "extract")]})


def fast_by_pattern(options):
    """Mode "fast" finds entities by pattern only: it names none that only a model finds."""
    if options.mode != "fast" or not options.entities:
        return options
    return options.model_copy(update={"entities": [e for e in options.entities if e not in ("PERSON", "LOCATION")]})


MODEL_FIXES = {
    "ScrapeOptions": lambda o: redactable(wait_within_timeout(o)),
    "V1ScrapeOptions": v1_without_model_formats,
    "RedactPIIOptions": fast_by_pattern,
}

# Rules of the API the models cannot state (as upstream's): a wait action waits for time or for an element, not both.
MODEL_RULES = {
    "WaitAction": lambda a: (a.milliseconds is None) != (a.selector is None),
    "V1WaitAction": lambda a: (a.milliseconds is None) != (a.selector is None),
    # JSON extraction is asked for by a prompt, a schema or both.
    "V1JsonConfig": lambda c: c.prompt is not None or c.schema_field is not None,
}


# ---- the oracle: which rows a call used ----

def disposition(key):
    return ORACLE.get(key)


def used_rows(owner_key, value, path, out):
    """Collects (path, row key, status, names) for `value` set under the oracle key `owner_key`."""
    d = disposition(owner_key)
    if d is None:
        raise KeyError(f"no coverage row for {owner_key} (at {path})")
    out.append((path, owner_key, d["status"], [owner_key.rsplit(".", 1)[-1], d["wire"]]))
    items = value if isinstance(value, list) else [value]
    for item in items:
        literal = item.value if isinstance(item, enum.Enum) else item
        key = str(literal).lower() if isinstance(literal, bool) else literal if isinstance(literal, str) else None
        values = d.get("values") or {}
        if key is not None and key in values:
            # A string value is named by itself; a boolean's refusal names its field.
            names = [key] if isinstance(literal, str) else [owner_key.rsplit(".", 1)[-1], d["wire"]]
            out.append((path, f"{owner_key} = {key}", values[key]["status"], names))
        if isinstance(item, pydantic.BaseModel):
            for fname in item.model_fields_set:
                sub = getattr(item, fname)
                if sub is not None:
                    used_rows(f"{type(item).__name__}.{fname}", sub, f"{path}.{fname}", out)


def judge(client_name, method_name, kwargs):
    out = []
    for name, value in kwargs.items():
        if value is not None:
            used_rows(f"{client_name}.{method_name}().{name}", value, name, out)
    refused = [u for u in out if u[2] in ("cloud", "todo", "retired")]
    return out, refused


# ---- the methods ----

def html_file():
    return b"<html><body><h1>Hello</h1><p>World</p></body></html>"


METHODS = [
    ("FirecrawlClient", "scrape"),
    ("FirecrawlClient", "start_crawl"),
    ("FirecrawlClient", "start_batch_scrape"),
    ("FirecrawlClient", "map"),
    ("FirecrawlClient", "search"),
    ("FirecrawlClient", "start_extract"),
    ("FirecrawlClient", "start_agent"),
    ("FirecrawlClient", "parse"),
    ("V1FirecrawlApp", "scrape_url"),
    ("V1FirecrawlApp", "async_crawl_url"),
    ("V1FirecrawlApp", "async_batch_scrape_urls"),
    ("V1FirecrawlApp", "map_url"),
    ("V1FirecrawlApp", "search"),
    ("V1FirecrawlApp", "async_extract"),
]


PARSE_REFUSES = {"actions", "wait_for", "location", "mobile"}


def parse_options():
    """Scrape options as parse takes them: the SDK itself refuses what needs a page (firecrawl/v2/methods/parse.py)."""
    from firecrawl.v2 import types as t

    def compatible(options):
        kept = {k: getattr(options, k) for k in options.model_fields_set if k not in PARSE_REFUSES}
        if kept.get("proxy") not in (None, "auto", "basic"):
            kept.pop("proxy")
        if kept.get("formats"):
            kept["formats"] = [f for f in kept["formats"] if format_type(f) not in ("changeTracking", "screenshot", "audio", "video", "branding")]
        return t.ScrapeOptions(**kept)

    return model_strategy(t.ScrapeOptions).map(compatible)


# Keyword arguments whose meaning depends on the method.
KWARG_OVERRIDES = {
    ("start_agent", "location"): lambda: st.fixed_dictionaries({"country": BY_NAME["country"]}),
    ("parse", "options"): parse_options,
    # The v1 client types these as any dict; the API's are {model, sessionId} (the JS v1 client's AgentOptionsExtract).
    ("async_extract", "agent"): lambda: st.fixed_dictionaries({"model": st.just("FIRE-1")}, optional={"sessionId": word}),
}


def kwargs_strategy(cls, method_name):
    fn = getattr(cls, method_name)
    hints = typing.get_type_hints(fn)
    required, optional = {}, {}
    for param in inspect.signature(fn).parameters.values():
        if param.name == "self" or param.name.startswith("_") or param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL):
            continue
        if param.name in NOT_GENERATED:
            continue
        override = KWARG_OVERRIDES.get((method_name, param.name))
        strat = override() if override else strategy_for(hints.get(param.name, param.annotation), param.name)
        is_required = param.default is inspect.Parameter.empty or param.name in ALWAYS_SENT
        (required if is_required else optional)[param.name] = strat
    return st.fixed_dictionaries(required, optional=optional)


# Rules of substance the strategies above cannot see field by field (docs/api/*.md).
def substance(method_name, kwargs):
    timeout = kwargs.get("timeout")
    if isinstance(timeout, int) and isinstance(kwargs.get("wait_for"), int):
        kwargs["wait_for"] = min(kwargs["wait_for"], timeout // 2)
    if method_name == "start_agent" and kwargs.get("mode") == "chat":
        kwargs.pop("schema", None)
    if kwargs.get("include_domains") and kwargs.get("exclude_domains"):
        kwargs.pop("exclude_domains")
    # v1's maxDepth counts from the site's root, so the start URL must lie within it (docs/api/v1.md, as upstream).
    if isinstance(kwargs.get("max_depth"), int) and kwargs.get("url"):
        depth = len([p for p in kwargs["url"].split("/", 3)[-1].split("/") if p])
        kwargs["max_depth"] = max(kwargs["max_depth"], depth)
    # v1 (docs/api/v1.md): the json and extract formats go with their options, both ways.
    if "json_options" in kwargs or "extract" in kwargs or method_name in ("scrape_url", "async_batch_scrape_urls"):
        formats = v1_formats(kwargs.get("formats") or [])
        for name, options in (("json", "json_options"), ("extract", "extract")):
            if kwargs.get(options) is not None and name not in formats:
                formats.append(name)
            if kwargs.get(options) is None:
                formats = [f for f in formats if f != name]
        if formats or "formats" in kwargs:
            kwargs["formats"] = formats
    # The SDK drops its scrape-option keyword arguments when scrape_options is given (it "takes precedence").
    if kwargs.get("scrape_options") is not None and method_name in ("crawl", "start_crawl"):
        from firecrawl.v2.types import ScrapeOptions

        for name in ScrapeOptions.model_fields:
            kwargs.pop(name, None)
    return kwargs


def call(client, v1, cls_name, method_name, kwargs):
    target = v1 if cls_name == "V1FirecrawlApp" else client
    fn = getattr(target, method_name)
    if method_name == "parse":
        return fn(html_file(), filename="page.html", content_type="text/html", **kwargs)
    return fn(**kwargs)


def outcome_problem(status, code, message, used, refused):
    """As outcomeProblem in js-acceptance.ts: a request with threat protection may also be answered by its policy (403)."""
    if status is None:
        return None
    by_policy = status == 403 and "threat protection" in message and any(u[1].endswith("threat_protection") for u in used)
    if not refused:
        return None if status == 402 or by_policy else f"refused a request whose every field is accepted ({status}: {message})"
    rows = ", ".join(u[1] for u in refused)
    if status == 402:
        return f"accepted a request with refused rows ({rows})"
    cloud = any(u[2] == "cloud" for u in refused) and status == 501
    if not (cloud or 400 <= status < 500):
        return f"answered {status} ({message}) for refused rows ({rows})"
    if not any(n in message for u in refused for n in u[3]):
        return f"refused, but the message does not name {rows}: {message}"
    return None


V1_STATUS = {"Payment Required": 402, "Website Not Supported": 403, "Request Timeout": 408, "Conflict": 409, "Internal Server Error": 500}


def v1_status(err):
    """The status of an answer the v1 client raised: on its HTTPError, or in the message it wraps in a ValueError."""
    response = getattr(err, "response", None)
    if response is not None and getattr(response, "status_code", None):
        return response.status_code
    message = str(err)
    match = re.search(r"Status code (\d{3})", message)
    if match:
        return int(match.group(1))
    for prefix, status in V1_STATUS.items():
        if message.startswith(prefix) or f"'{prefix}" in message or f'"{prefix}' in message:
            return status
    return None


def run(cls_name, method_name, client, v1):
    cls = {"FirecrawlClient": FirecrawlClient, "V1FirecrawlApp": V1FirecrawlApp}[cls_name]
    report = {"method": f"{cls_name}.{method_name}", "accepted": 0, "refused": 0, "not_sent": 0, "failures": []}

    @seed(SEED)
    @settings(max_examples=EXAMPLES, deadline=None, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(kwargs_strategy(cls, method_name))
    def prop(kwargs):
        kwargs = substance(method_name, dict(kwargs))
        used, refused = judge(cls_name, method_name, kwargs)
        try:
            call(client, v1, cls_name, method_name, kwargs)
            status, code, message = 200, None, "a team without credits got an answer"
        except FirecrawlError as err:
            status, code, message = err.status_code, getattr(err, "code", None), str(err)
        except Exception as err:
            status, code, message = v1_status(err), None, str(err)
            if status is None:
                # The SDK's own checks refused the arguments: nothing was sent.
                report["not_sent"] += 1
                report.setdefault("not_sent_examples", []).append(f"{type(err).__name__}: {str(err)[:300]}")
                return
        if status == 402:
            report["accepted"] += 1
        else:
            report["refused"] += 1
        problem = outcome_problem(status, code, message, used, refused)
        if problem:
            report["failures"].append({"seed": SEED, "kwargs": repr(kwargs)[:2000], "problem": problem})

    prop()
    return report


def main():
    client = Firecrawl(api_key=os.environ["POOR_KEY"], api_url=API_URL)
    v1 = V1FirecrawlApp(api_key=os.environ["POOR_KEY"], api_url=API_URL)
    only = os.environ.get("ONLY")
    for cls_name, method_name in METHODS:
        if only and only not in f"{cls_name}.{method_name}":
            continue
        print(json.dumps(run(cls_name, method_name, client, v1)), flush=True)


main()
