"""Execution: run plan steps against real sources and return attributed values.

Public surface:

* :class:`Executor` (``run(plan)`` / ``run_sync(plan)``) and :func:`load_executor`;
* :class:`Adapter` (the protocol plugins implement), :class:`StepCall`, :class:`FetchResult`,
  :class:`FieldValue`;
* :class:`HttpJsonAdapter` with :class:`AdapterSpec` (the generic declarative adapter);
* :func:`make_client`, :class:`HttpConfig` (the shared HTTP client and its limits);
* :func:`render_context`, :func:`count_tokens` (the context renderer);
* :mod:`schemarouter.execution.errors` (typed step errors).
"""

from schemarouter.execution.adapter import Adapter, FetchResult, FieldValue, StepCall
from schemarouter.execution.context import Context, count_tokens, estimate_tokens, render_context
from schemarouter.execution.executor import Executor, load_executor
from schemarouter.execution.http import HttpConfig, make_client
from schemarouter.execution.httpjson import HttpJsonAdapter
from schemarouter.execution.registry_adapters import collect_adapters
from schemarouter.execution.results import Record, RunResult, StepResult, Value
from schemarouter.sources.spec import AdapterSpec

__all__ = [
    "Adapter", "AdapterSpec", "Context", "Executor", "FetchResult", "FieldValue", "HttpConfig",
    "HttpJsonAdapter", "Record", "RunResult", "StepCall", "StepResult", "Value", "collect_adapters",
    "count_tokens", "estimate_tokens", "load_executor", "make_client", "render_context",
]
