"""Routing: Algorithm 1 over the schema graph, plan validation and staleness."""

from schemarouter.router.core import Router
from schemarouter.router.validate import is_stale, plan_inputs, validate_plan

__all__ = ["Router", "is_stale", "plan_inputs", "validate_plan"]
