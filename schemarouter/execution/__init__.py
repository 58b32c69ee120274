"""Execution: run plan steps against real sources and return attributed values.

The executor (:mod:`~schemarouter.execution.executor`) runs a plan's steps through each source's
adapter (:mod:`~schemarouter.execution.adapter`; the generic one is
:mod:`~schemarouter.execution.httpjson`) over one shared HTTP client
(:mod:`~schemarouter.execution.http`), with typed step errors
(:mod:`~schemarouter.execution.errors`), the response cache, offline replay and the context
renderer. Plugins import what they need from :mod:`schemarouter.adapters`; programs use
:mod:`schemarouter.api`. This package imports nothing above it: not the graph, the understand
step or the router.
"""
