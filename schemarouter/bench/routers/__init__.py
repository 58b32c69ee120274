"""The routers a benchmark run compares, all behind :class:`~schemarouter.bench.routers.base.BenchRouter`."""
