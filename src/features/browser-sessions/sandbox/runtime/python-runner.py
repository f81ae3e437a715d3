# Runs inside a session's sandbox: attaches async Python Playwright to the
# session's browser first (a warm runner waits here, already attached), then
# reads the caller's code from stdin until it ends, runs it with `page`,
# `context`, `browser` and `playwright` bound and top-level await allowed, and
# reports the value of its last expression on the report descriptor. One run
# per process: the host kills the whole sandbox at the timeout.
import ast
import asyncio
import inspect
import json
import os
import sys
import traceback

from playwright.async_api import async_playwright

REPORT_FD = 3
RESULT_NAME = "__execute_result__"


def show_value(value):
    if value is None:
        return None
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def cap_result(text):
    # The result cut to the host's output cap, saying so, as the host cuts stdout.
    limit = int(os.environ["EXECUTE_MAX_RESULT_CHARS"])
    if text is None or len(text) <= limit:
        return text
    return f"{text[:limit]}\n[{len(text) - limit} more characters dropped: the result is cut at {limit} (SANDBOX_MAX_OUTPUT_BYTES)]\n"


def describe_error(err):
    return f"{type(err).__name__}: {err}"


def finish(payload, exit_code):
    # One line, whose end tells the host the run is over (runner-report.ts); output goes first.
    sys.stdout.flush()
    sys.stderr.flush()
    with os.fdopen(REPORT_FD, "w") as report:
        report.write(json.dumps({**payload, "exitCode": exit_code}) + "\n")
    os._exit(exit_code)


async def pump(reader, writer):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def relay(client_reader, client_writer):
    # The session's bridge socket is the only way out of the sandbox's loopback.
    try:
        upstream_reader, upstream_writer = await asyncio.open_unix_connection(os.environ["EXECUTE_CDP_SOCKET"])
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(pump(client_reader, upstream_writer), pump(upstream_reader, client_writer))


def compile_code(code):
    tree = ast.parse(code, "<execute>", "exec")
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body[-1]
        tree.body[-1] = ast.copy_location(
            ast.Assign(targets=[ast.Name(id=RESULT_NAME, ctx=ast.Store())], value=last.value), last
        )
        ast.fix_missing_locations(tree)
    return compile(tree, "<execute>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


async def main():
    server = await asyncio.start_server(relay, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    url = f"ws://127.0.0.1:{port}{os.environ.get('EXECUTE_CDP_PATH', '')}"
    try:
        playwright = await async_playwright().start()
        browser = await playwright.chromium.connect_over_cdp(url, timeout=15_000)
    except Exception as err:  # noqa: BLE001 - any failure to attach is the host's to report
        finish({"fatal": f"could not attach to the session's browser: {describe_error(err)}"}, 70)
        return
    # A runner waiting for code whose browser went away is of no use: it ends, and the host starts a fresh one.
    def on_disconnect(_browser):
        finish({"fatal": "the session's browser closed the connection"}, 70)

    browser.once("disconnected", on_disconnect)
    code = await asyncio.get_running_loop().run_in_executor(None, lambda: sys.stdin.buffer.read().decode("utf-8", "replace"))
    browser.remove_listener("disconnected", on_disconnect)
    context = browser.contexts[0] if browser.contexts else await browser.new_context()
    page = context.pages[0] if context.pages else await context.new_page()
    scope = {"__name__": "__main__", "page": page, "context": context, "browser": browser, "playwright": playwright, "asyncio": asyncio}
    try:
        compiled = compile_code(code)
    except SyntaxError as err:
        traceback.print_exception(err, limit=0)
        finish({"error": describe_error(err)}, 1)
        return
    try:
        outcome = eval(compiled, scope)  # noqa: S307 - running the caller's code is the point, inside the sandbox
        if inspect.isawaitable(outcome):
            await outcome
        finish({"result": cap_result(show_value(scope.get(RESULT_NAME)))}, 0)
    except BaseException as err:  # noqa: BLE001 - SystemExit and KeyboardInterrupt are the caller's too
        if isinstance(err, SystemExit) and err.code in (None, 0):
            finish({"result": cap_result(show_value(scope.get(RESULT_NAME)))}, 0)
        traceback.print_exc()
        finish({"error": describe_error(err)}, 1)


asyncio.run(main())
