"""The benchmark's data (gold query sets, the frozen inventory), found by ``schemarouter.bench.data_path``.

A distribution of its own so the runtime wheel does not ship the gold answers.
"""
