"""The routers a benchmark run compares, all behind :class:`~schemarouter_bench.routers.base.BenchRouter`."""
