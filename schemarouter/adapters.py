"""Everything a source plugin imports from schemarouter, in one place.

A plugin's ``adapter.py`` and ``__init__.py`` need only this module (and ``schemarouter.hookimpl``
where they implement hooks by hand): the adapter protocol and the generic HTTP JSON adapter to
subclass, the spec that tells it where records and parameters go, the typed errors a step may
raise, the helpers for reading a response, and ``packaged_source``, which turns a package's
``source.yaml`` and adapter into a plugin. Everything else in the package is internal and may
move between releases; names here stay.
"""

from schemarouter.execution.adapter import Adapter, FetchResult, FieldValue, StepCall
from schemarouter.execution.errors import (
    HttpStatusError,
    InvalidStep,
    MissingCredentials,
    NetworkError,
    NoRecording,
    NoRecords,
    RateLimited,
    ResponseTooLarge,
    StepError,
    StepTimeout,
    UnparseableBody,
)
from schemarouter.execution.httpjson import HttpJsonAdapter, QueryPair, RequestParts, redact_url
from schemarouter.execution.optimade import OptimadeAdapter
from schemarouter.execution.rendering import as_list, projection_keys, scalar_text
from schemarouter.field_paths import extract, parse_path
from schemarouter.hookspecs import hookimpl
from schemarouter.models import DomainConcept, Source, ValuePattern
from schemarouter.packaged import packaged_source
from schemarouter.sources.spec import AdapterSpec

__all__ = [
    "Adapter",
    "AdapterSpec",
    "DomainConcept",
    "FetchResult",
    "FieldValue",
    "HttpJsonAdapter",
    "HttpStatusError",
    "InvalidStep",
    "MissingCredentials",
    "NetworkError",
    "NoRecording",
    "NoRecords",
    "OptimadeAdapter",
    "QueryPair",
    "RateLimited",
    "RequestParts",
    "ResponseTooLarge",
    "Source",
    "StepCall",
    "StepError",
    "StepTimeout",
    "UnparseableBody",
    "ValuePattern",
    "as_list",
    "extract",
    "hookimpl",
    "packaged_source",
    "parse_path",
    "projection_keys",
    "redact_url",
    "scalar_text",
]
