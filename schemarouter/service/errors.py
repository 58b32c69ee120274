"""Errors a service caller can act on: each carries an HTTP status and a short machine code.

The HTTP API turns them into ``{"error": ..., "code": ...}`` bodies and the MCP server into tool
errors; the message is one line and never holds a secret or a traceback.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses or cannot complete, with the status that says why."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        """The JSON error body."""
        return {"error": self.message, "code": self.code}


def bad_request(message: str) -> ServiceError:
    """The request itself is malformed (400)."""
    return ServiceError(400, "bad_request", message)


def invalid(message: str, code: str = "invalid") -> ServiceError:
    """Well-formed, but names something the registry does not have or breaks a rule (422)."""
    return ServiceError(422, code, message)


def not_found(message: str) -> ServiceError:
    """No such resource (404)."""
    return ServiceError(404, "not_found", message)
