"""Root conftest: enables the schemarouter test kit for every test in the repository."""

pytest_plugins = ["schemarouter.testing"]
