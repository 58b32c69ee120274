"""Typed step errors: why one plan step produced no values.

Each kind is a subclass of :class:`StepError` with a stable ``kind`` string, so the CLI, the
JSON output and tests can tell a missing key from a timeout without parsing messages. A step
error never stops the other steps of a run.
"""

from __future__ import annotations


class StepError(Exception):
    """One step failed; ``str(err)`` is a complete one-line message."""

    kind = "error"


class MissingCredentials(StepError):
    """The source needs a key from an environment variable that is not set (checked before any request)."""

    kind = "missing_credentials"

    def __init__(self, source: str, env: str) -> None:
        self.env = env
        super().__init__(f"{source} needs an API key: set the environment variable {env}")


class StepTimeout(StepError):
    """A request, or the whole step, did not finish within its time limit."""

    kind = "timeout"


class RateLimited(StepError):
    """The source still answered HTTP 429 (too many requests) after the retries."""

    kind = "rate_limited"


class HttpStatusError(StepError):
    """The source answered with an error status; ``status`` holds it."""

    kind = "http_status"

    def __init__(self, message: str, status: int) -> None:
        self.status = status
        super().__init__(message)


class UnparseableBody(StepError):
    """The response body could not be read as the declared format, or lacks the records."""

    kind = "unparseable_body"


class ResponseTooLarge(StepError):
    """The response body exceeded the size limit."""

    kind = "response_too_large"


class UnresolvedBinding(StepError):
    """A parameter bound to an earlier step could not be given a value (the producer failed,
    returned no record, or no value for the bound field)."""

    kind = "unresolved_binding"


class NoRecords(StepError):
    """The source answered, but with no records."""

    kind = "no_records"


class InvalidStep(StepError):
    """The step names an unknown source, endpoint, field or parameter, or has no adapter."""

    kind = "invalid_step"


class MissingInput(StepError):
    """The step lacks a required parameter: the question did not give it and no earlier step
    produces it (checked before any request; the plan's coverage lists it as an ``input``)."""

    kind = "missing_input"

    def __init__(self, source: str, endpoint: str, names: list[str]) -> None:
        self.names = names
        listed = ", ".join(repr(n) for n in names)
        super().__init__(
            f"{source}.{endpoint} needs {listed} (required) and the plan does not give "
            f"{'it' if len(names) == 1 else 'them'}: ask the question again with "
            f"{'that value' if len(names) == 1 else 'those values'}, or set {'it' if len(names) == 1 else 'them'} "
            f"in the plan's step params"
        )


class WriteNotAllowed(StepError):
    """The step calls a write endpoint of a source the user has not allowed writes for (checked before any request)."""

    kind = "write_not_allowed"

    def __init__(self, source: str, endpoint: str, method: str) -> None:
        self.source = source
        super().__init__(
            f"{source}.{endpoint} is a write ({method}) and writes are not enabled for {source}; allow them with "
            f"`schemarouter run --allow-writes {source}` or SCHEMAROUTER_ALLOW_WRITES={source}"
        )


class NetworkError(StepError):
    """The connection failed (DNS, refused, reset)."""

    kind = "network"


class NoRecording(NetworkError):
    """Offline replay holds no recording of this request: of these values and fields (an HTTP
    request) or of this tool call (an MCP session). Not a network failure: nothing was sent. A
    subclass of :class:`NetworkError` so that whatever handles an unreachable source handles it."""

    kind = "no_recording"


class ToolError(StepError):
    """An MCP tool answered with an error result (``isError``); the message quotes what it said."""

    kind = "tool_error"


class ResultMismatch(StepError):
    """A result does not match the schema its tool declared for it (an MCP ``outputSchema``)."""

    kind = "schema_mismatch"


class QueryFailed(StepError):
    """A database answered a read with an error of its own: a table or column gone, a view that no
    longer compiles, a value the column cannot be compared with."""

    kind = "query_failed"
